/**
 * A usage report as the terminal shows it (`npm run usage`): a heading, aligned columns, the
 * per-model breakdown under each row when asked for, a totals line, and notes on what the cost
 * leaves out. Plain text: keys that come from transcripts (thread titles, projects) have their
 * control characters replaced, so a title cannot move the cursor or recolour the terminal. Pure.
 */
import { formatUsd } from "./cost";
import { blockTokens } from "./usage-blocks";
import { offsetMinutes } from "./usage-period";
import type { UsageFigures, UsageGroup, UsageReport, UsageRow } from "./usage-report";

const KEY_HEADINGS: Record<UsageGroup, string> = {
  day: "Day",
  week: "Week of",
  month: "Month",
  model: "Model",
  provider: "Provider",
  project: "Project",
  source: "Source",
  thread: "Session",
  block: "Block start",
  person: "Person",
  machine: "Machine",
};

const GROUP_NAMES: Record<UsageGroup, string> = {
  day: "day",
  week: "week",
  month: "month",
  model: "model",
  provider: "provider",
  project: "project",
  source: "source",
  thread: "session",
  block: "block",
  person: "person",
  machine: "machine",
};

/** The widest a key or title is shown; longer ones are cut with "…". */
const MAX_KEY_WIDTH = 48;

/**
 * 1234567 -> "1,234,567".
 * @internal exported for its tests
 */
export function formatTokens(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Text from a transcript made safe to print: control characters (C0, DEL, C1: ESC, CR, newlines) become spaces.
 * @internal exported for its tests
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
}

/** East Asian wide and fullwidth characters and emoji: two columns of a terminal (the common ranges). */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f680}-\u{1f6ff}\u{1f900}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** The columns a character takes in a terminal. */
const columnsOf = (char: string) => (WIDE.test(char) ? 2 : 1);

/**
 * The columns a text takes in a terminal.
 * @internal exported for its tests
 */
export function displayWidth(text: string): number {
  let total = 0;
  for (const char of text) total += columnsOf(char);
  return total;
}

/** At most `width` columns; a project (a path) keeps its end, anything else its start. */
function cut(text: string, width: number, keepEnd: boolean): string {
  if (displayWidth(text) <= width) return text;
  const chars = keepEnd ? [...text].reverse() : [...text];
  const kept: string[] = [];
  let used = 1; // the "…"
  for (const char of chars) {
    if (used + columnsOf(char) > width) break;
    kept.push(char);
    used += columnsOf(char);
  }
  return keepEnd ? `…${kept.reverse().join("")}` : `${kept.join("")}…`;
}

/** A row's cost: "unpriced" when none of its responses has a price, a "*" when some have none. */
function costCell(figures: UsageFigures): string {
  if (figures.responses > 0 && figures.unpricedResponses === figures.responses) return "unpriced*";
  return `${formatUsd(figures.costUsd)}${figures.unpricedResponses > 0 ? "*" : ""}`;
}

/** A column of figures is aligned right; a column of names (`text`) left, and comes last. */
type Column = { heading: string; value: (figures: UsageFigures) => string; text?: true };

function columns(report: UsageReport): Column[] {
  const all: Column[] = [
    { heading: "Input", value: (f) => formatTokens(f.inputTokens) },
    { heading: "Output", value: (f) => formatTokens(f.outputTokens) },
    { heading: "Cache read", value: (f) => formatTokens(f.cacheReadTokens) },
    { heading: "Cache write", value: (f) => formatTokens(f.cacheWriteTokens) },
  ];
  // Reasoning is a part of output for most sources: a column only when some was reported.
  if (report.totals.reasoningTokens > 0) all.push({ heading: "Reasoning", value: (f) => formatTokens(f.reasoningTokens) });
  all.push({ heading: "Cost", value: costCell }, { heading: "Responses", value: (f) => formatTokens(f.responses) });
  return all;
}

const width = displayWidth;
const padEnd = (text: string, to: number) => text + " ".repeat(Math.max(0, to - width(text)));
const padStart = (text: string, to: number) => " ".repeat(Math.max(0, to - width(text))) + text;

function keyLabel(report: UsageReport, key: string, title?: string | null): string {
  if (report.groupBy === "block") return localTime(key, report.tz);
  if (report.groupBy === "thread") return cut(printable(title?.trim() || "(untitled)"), MAX_KEY_WIDTH, false);
  if (key === "") return "(none)";
  return cut(printable(key), MAX_KEY_WIDTH, report.groupBy === "project");
}

function heading(report: UsageReport): string {
  const filters = Object.entries(report.filters)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${printable(String(value))}`);
  const range = report.since === report.until ? report.since : `${report.since} to ${report.until}`;
  return `Usage by ${GROUP_NAMES[report.groupBy]}, ${range} (${report.tz})${filters.length > 0 ? `; ${filters.join(", ")}` : ""}`;
}

function plural(count: number, noun: string): string {
  return `${formatTokens(count)} ${noun}${count === 1 ? "" : "s"}`;
}

/** An instant as local time in a zone: "2026-02-12 15:00". */
function localTime(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  return new Date(at + offsetMinutes(timeZone, at) * 60_000).toISOString().slice(0, 16).replace("T", " ");
}

/** "3h 05m" */
function duration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/** For blocks: when each started (local time), how long it ran or how long is left, its models and all its tokens. */
function blockColumns(now: Date): Column[] {
  const block = (f: UsageFigures) => f as UsageRow;
  const overLimit = (f: UsageFigures) => (block(f).overTokenLimit ? " !" : "");
  return [
    {
      heading: "Duration",
      value: (f) => {
        const row = block(f);
        if (!row.start) return "";
        if (row.isActive) return `active, ${Math.max(0, Math.round((Date.parse(row.end!) - now.getTime()) / 60_000))} min left`;
        return duration(Date.parse(row.lastResponseAt!) - Date.parse(row.start));
      },
    },
    { heading: "Tokens", value: (f) => `${formatTokens(blockTokens(f))}${overLimit(f)}` },
    { heading: "Cost", value: costCell },
    { heading: "Responses", value: (f) => formatTokens(f.responses) },
    { heading: "Models", value: (f) => (block(f).models ?? []).map((m) => printable(m)).join(", "), text: true },
  ];
}

/** Under a blocks table: the active block's burn rate and projection, and the token limit. */
function blockNotes(report: UsageReport): string[] {
  const notes: string[] = [];
  const active = report.rows.find((row) => row.isActive);
  if (active?.burnRate && active.projection) {
    notes.push(
      `Active block: ${formatTokens(active.burnRate.tokensPerMinute)} tokens and ${formatUsd(active.burnRate.costUsdPerMinute)} a minute; ` +
        `at this rate ${formatTokens(active.projection.totalTokens)} tokens and ${formatUsd(active.projection.costUsd)} by ${localTime(active.end!, report.tz)}.`,
    );
  }
  if (report.tokenLimit !== undefined)
    notes.push(
      report.tokenLimit === null
        ? "Token limit max: no completed block to take it from."
        : `Token limit ${formatTokens(report.tokenLimit)}: blocks over it are marked !.`,
    );
  return notes;
}

/** The report as an aligned table with a totals line, and notes on unpriced and estimated responses (`now`: an active block's time left). */
export function usageTable(report: UsageReport, now = new Date()): string {
  const lines = [heading(report), ""];
  if (report.rows.length === 0) {
    lines.push("No model responses with usage in this range.");
    return lines.join("\n") + "\n";
  }
  const isBlock = report.groupBy === "block";
  const cols = isBlock ? blockColumns(now) : columns(report);
  const isThread = report.groupBy === "thread";
  type Line = { key: string; cells: string[]; id?: string; kind: "row" | "part" | "total" };
  const body: Line[] = [];
  for (const row of report.rows) {
    body.push({
      key: keyLabel(report, row.key, row.title),
      cells: cols.map((c) => c.value(row)),
      kind: "row",
      ...(isThread && { id: row.key }),
    });
    for (const part of row.breakdown ?? []) {
      body.push({
        key: `  ${part.key === "" ? "(no model)" : cut(printable(part.key), MAX_KEY_WIDTH - 2, false)}`,
        cells: cols.map((c) => c.value(part)),
        kind: "part",
      });
    }
  }
  const total: Line = { key: "Total", cells: cols.map((c) => c.value(report.totals)), kind: "total" };

  const keyHeading = KEY_HEADINGS[report.groupBy];
  const keyWidth = Math.max(width(keyHeading), width(total.key), ...body.map((l) => width(l.key)));
  const cellWidths = cols.map((c, i) => Math.max(width(c.heading), width(total.cells[i]!), ...body.map((l) => width(l.cells[i]!))));
  const render = (key: string, cells: string[], id?: string) =>
    [
      padEnd(key, keyWidth),
      ...cells.map((cell, i) => (cols[i]!.text ? padEnd : padStart)(cell, cellWidths[i]!)),
      ...(id !== undefined ? [id] : []),
    ]
      .join("  ")
      .trimEnd();

  lines.push(
    render(
      keyHeading,
      cols.map((c) => c.heading),
      isThread ? "Thread id" : undefined,
    ),
  );
  const idWidth = isThread ? Math.max(width("Thread id"), ...body.map((l) => width(l.id ?? ""))) + 2 : 0;
  const rule = "─".repeat(keyWidth + cellWidths.reduce((sum, w) => sum + w + 2, 0) + idWidth);
  lines.push(rule);
  for (const line of body) lines.push(render(line.key, line.cells, line.id));
  lines.push(rule);
  lines.push(render(total.key, total.cells));
  lines.push("");

  const { totals } = report;
  lines.push(
    `${plural(totals.responses, "response")} in ${plural(totals.threads, "thread")}${report.rows.length > 1 ? `, ${plural(report.rows.length, GROUP_NAMES[report.groupBy])}` : ""}.`,
  );
  if (totals.unpricedResponses > 0) {
    const models = totals.unpricedModels.length > 0 ? `: ${totals.unpricedModels.map((m) => printable(m)).join(", ")}` : "";
    lines.push(
      `* ${plural(totals.unpricedResponses, "response")} of models without a known price, counted in the tokens but not in the cost${models}.`,
    );
  }
  if (isBlock) lines.push(...blockNotes(report));
  if (totals.estimatedResponses > 0) {
    lines.push(`${plural(totals.estimatedResponses, "response")} without reported usage: estimated by our tokenizer (a lower bound).`);
  }
  return lines.join("\n") + "\n";
}
