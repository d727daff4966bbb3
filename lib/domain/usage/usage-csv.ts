/**
 * The /usage page's tables as CSV (RFC 4180): a header row, then a row per report row, lines
 * ended by CRLF, a field quoted when it holds a comma, a quote or a line break. Numbers are
 * written unformatted (tokens as integers, cost as decimal dollars at full precision), dates as
 * ISO. Text cells come from transcripts (titles, project paths, model names): one a spreadsheet
 * would read as a formula (=, +, -, @, tab, CR first) is prefixed with ' so it stays text. Pure.
 */
import type { UsageRow } from "./usage-report";
import { totalTokens } from "./usage-views";

type Cell = string | number | boolean | null | undefined;

/** What starts a formula in Excel, LibreOffice or Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A number as plain decimals, never in exponent form ("1e-7" -> "0.0000001"), with every digit the double holds.
 * @internal exported for its tests
 */
export function decimal(n: number): string {
  const text = String(n);
  const exponent = text.indexOf("e");
  if (exponent < 0) return text;
  // Past 1e21 a double is a whole number, and toFixed writes exponents too.
  if (Number.isInteger(n)) return BigInt(n).toString();
  const fractionDigits = (text.slice(0, exponent).split(".")[1]?.length ?? 0) - Number(text.slice(exponent + 1));
  return n.toFixed(Math.min(100, Math.max(0, fractionDigits)));
}

/** One field: numbers as decimals, text made inert and quoted where RFC 4180 asks. */
function field(cell: Cell): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "number") return decimal(cell);
  if (typeof cell === "boolean") return String(cell);
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Rows of cells as CSV text, the header first.
 * @internal exported for its tests
 */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}

const FIGURE_HEADER = [
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "reasoning_tokens",
  "total_tokens",
  "cost_usd",
  "responses",
  "threads",
  "unpriced_responses",
  "estimated_responses",
];

function figureCells(row: UsageRow): Cell[] {
  return [
    row.inputTokens,
    row.outputTokens,
    row.cacheReadTokens,
    row.cacheWriteTokens,
    row.reasoningTokens,
    totalTokens(row),
    row.costUsd,
    row.responses,
    row.threads,
    row.unpricedResponses,
    row.estimatedResponses,
  ];
}

/** The tables of the page, each named by what its rows are. */
export type CsvTable = "day" | "week" | "month" | "block" | "model" | "session" | "project" | "source" | "person" | "machine";

/** The key columns of each table before the figures: a period's ISO date or instant, or the name the row is for. */
const KEY_HEADERS: Record<CsvTable, string[]> = {
  day: ["day"],
  week: ["week_start"],
  month: ["month"],
  block: ["block_start", "block_end", "last_response_at", "active", "models"],
  model: ["model"],
  session: ["thread_id", "title"],
  project: ["project"],
  source: ["source"],
  person: ["person_id", "name"],
  machine: ["machine"],
};

function keyCells(table: CsvTable, row: UsageRow, title: (row: UsageRow) => string | null): Cell[] {
  if (table === "block") return [row.start ?? row.key, row.end, row.lastResponseAt, row.isActive, row.models?.join(" ")];
  if (table === "session") return [row.key, title(row)];
  if (table === "person") return [row.key, row.title ?? null];
  return [row.key];
}

/**
 * A table's rows as CSV, in the report's order. `title` gives a session's title as the page shows
 * it (secrets masked); the totals are left out, so a column sums to them.
 */
export function usageCsv(table: CsvTable, rows: readonly UsageRow[], title: (row: UsageRow) => string | null = () => null): string {
  return toCsv(
    [...KEY_HEADERS[table], ...FIGURE_HEADER],
    rows.map((row) => [...keyCells(table, row, title), ...figureCells(row)]),
  );
}

/** The file a table downloads as: threadline-usage-<table>-<since>-<until>.csv. */
export function csvFilename(table: CsvTable, since: string, until: string): string {
  return `threadline-usage-${table}-${since}-${until}.csv`;
}
