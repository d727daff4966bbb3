import type { ReactNode } from "react";
import { FigureCost, FigureCovers, FigureTokens } from "@/components/ui/session-figure";
import { CsvDownload } from "./csv-download";
import { formatUsd } from "@/lib/domain/usage/cost";
import type { UsageFigures, UsageRow } from "@/lib/domain/usage/usage-report";
import { formatInteger, plural } from "@/lib/format";

/** The range's totals: money first, then counts and tokens. */
export function UsageTotals({ totals }: Readonly<{ totals: UsageFigures }>) {
  const figures: { label: string; value: string; testId: string }[] = [
    { label: "Cost", value: formatUsd(totals.costUsd), testId: "total-cost" },
    { label: "Responses", value: formatInteger(totals.responses), testId: "total-responses" },
    { label: "Threads", value: formatInteger(totals.threads), testId: "total-threads" },
    { label: "Input tokens", value: formatInteger(totals.inputTokens), testId: "total-input" },
    { label: "Output tokens", value: formatInteger(totals.outputTokens), testId: "total-output" },
    { label: "Cache read", value: formatInteger(totals.cacheReadTokens), testId: "total-cache-read" },
    { label: "Cache write", value: formatInteger(totals.cacheWriteTokens), testId: "total-cache-write" },
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7" aria-label="Totals for the range">
      {figures.map((figure, i) => (
        <div
          key={figure.label}
          className={`rounded-lg border border-zinc-200 bg-white px-3 py-2 ${i === 0 ? "col-span-2 sm:col-span-1" : ""}`}
        >
          <dt className="text-xs text-zinc-600">{figure.label}</dt>
          <dd
            className={`font-mono ${i === 0 ? "text-2xl font-semibold text-zinc-950" : "text-lg text-zinc-900"}`}
            data-testid={figure.testId}
          >
            {figure.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What the cost leaves out, said where the cost is: responses of models with no known price
 * (their tokens count, their cost does not) and responses whose usage was estimated.
 */
export function UsageCaveats({ totals, byModel }: Readonly<{ totals: UsageFigures; byModel: UsageRow[] }>) {
  const unpriced = byModel.filter((row) => row.unpricedResponses > 0);
  if (unpriced.length === 0 && totals.estimatedResponses === 0) return null;
  return (
    <ul
      className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      aria-label="What the cost leaves out"
    >
      {unpriced.map((row) => (
        <li key={row.key} className="min-w-0 break-words" data-testid="unpriced-note">
          {plural(row.unpricedResponses, "response")} of model{" "}
          <span className="font-mono break-all">{row.key === "" ? "(no model)" : row.key}</span> unpriced: no known price, so not counted in
          the cost (their tokens are).
        </li>
      ))}
      {totals.estimatedResponses > 0 && (
        <li data-testid="estimated-note">
          {plural(totals.estimatedResponses, "response")} had no usage recorded by their source: their tokens were estimated with our
          tokenizer, a lower bound, and their cost with them.
        </li>
      )}
    </ul>
  );
}

type Column = { label: string; cell: (row: UsageRow) => ReactNode; numeric?: boolean };

const COLUMNS: Column[] = [
  { label: "Cost", cell: (row) => <CostCell row={row} />, numeric: true },
  { label: "Responses", cell: (row) => formatInteger(row.responses), numeric: true },
  { label: "Threads", cell: (row) => formatInteger(row.threads), numeric: true },
  { label: "Input", cell: (row) => formatInteger(row.inputTokens), numeric: true },
  { label: "Output", cell: (row) => formatInteger(row.outputTokens), numeric: true },
  { label: "Cache read", cell: (row) => formatInteger(row.cacheReadTokens), numeric: true },
  { label: "Cache write", cell: (row) => formatInteger(row.cacheWriteTokens), numeric: true },
];

/**
 * A session's row (groupBy=thread): its cost and tokens as the thread list and header show them
 * (components/ui/session-figure.tsx), with what they cover and the split.
 */
const SESSION_COLUMNS: Column[] = [
  {
    label: "Cost",
    cell: (row) =>
      row.figures ? (
        <span className="inline-flex flex-col items-end gap-0.5">
          <FigureCost figures={row.figures} />
          <span className="text-xs font-sans">
            <FigureCovers figures={row.figures} />
          </span>
        </span>
      ) : (
        <CostCell row={row} />
      ),
    numeric: true,
  },
  { label: "Tokens", cell: (row) => (row.figures ? <FigureTokens figures={row.figures} /> : null), numeric: true },
  ...COLUMNS.slice(1),
];

/** A cost with its unpriced responses: "unpriced" when none had a price, "+3 unpriced" below the cost when some did not (/usage and /insights). */
export function CostCell({ row }: Readonly<{ row: Pick<UsageRow, "costUsd" | "responses" | "unpricedResponses"> }>) {
  if (row.unpricedResponses > 0 && row.unpricedResponses === row.responses) return <span className="text-amber-800">unpriced</span>;
  return (
    <>
      {formatUsd(row.costUsd)}
      {row.unpricedResponses > 0 && <span className="block text-xs text-amber-800">+{formatInteger(row.unpricedResponses)} unpriced</span>}
    </>
  );
}

/**
 * One grouping of the report as a table: a row per model, project, source or thread, the
 * costliest first. `name` renders a row's first cell (a link that filters the page, or to the thread);
 * `csv` is the table as a file to download.
 * It scrolls inside its box on a phone; the page does not.
 */
export function UsageTable({
  title,
  keyLabel,
  rows,
  name,
  testId,
  footer,
  csv,
  sessions = false,
}: Readonly<{
  title: string;
  keyLabel: string;
  rows: UsageRow[];
  name: (row: UsageRow) => ReactNode;
  testId: string;
  footer?: ReactNode;
  csv: { text: string; filename: string };
  sessions?: boolean;
}>) {
  const columns = sessions ? SESSION_COLUMNS : COLUMNS;
  return (
    <section aria-labelledby={`${testId}-title`} className="min-w-0">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${testId}-title`} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        {rows.length > 0 && <CsvDownload csv={csv.text} filename={csv.filename} table={title} />}
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600">None in this range.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-sm" data-testid={testId}>
            <thead className="bg-zinc-50 text-xs text-zinc-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {keyLabel}
                </th>
                {columns.map((column) => (
                  <th key={column.label} scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {rows.map((row) => (
                <tr key={row.key} data-testid={`${testId}-row`} data-key={row.key}>
                  <th scope="row" className="max-w-72 min-w-40 px-3 py-2 text-left font-normal break-words">
                    {name(row)}
                  </th>
                  {columns.map((column) => (
                    <td
                      key={column.label}
                      className="px-3 py-2 text-right font-mono whitespace-nowrap"
                      data-testid={`${testId}-${column.label.toLowerCase().replace(" ", "-")}`}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {footer}
    </section>
  );
}
