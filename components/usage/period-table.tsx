"use client";

import { useState, type ReactNode } from "react";
import { formatUsd } from "@/lib/domain/usage/cost";
import type { UsageFigures } from "@/lib/domain/usage/usage-report";
import { nextSortOrder, sortPeriodRows, TIME_ORDER, totalTokens, type SortColumn, type SortOrder } from "@/lib/domain/usage/usage-views";
import { formatInteger } from "@/lib/format";

/** A period's row as the server prepared it: its figures, and its labels in the page's zone. */
export type PeriodRow = UsageFigures & {
  key: string;
  label: string;
  /** Each model's part ("claude-opus-4-6 $1.20"), or a block's models. */
  models: string[];
  /** A block's state ("2 h 42 min used", "active — 37 min left") and, while open, where its pace leads. */
  status?: string;
  forecast?: string | null;
};

type Column = { column: Exclude<SortColumn, "period">; label: string; testId: string; cell: (figures: UsageFigures) => ReactNode };

const COLUMNS: Column[] = [
  { column: "input", label: "Input", testId: "input", cell: (f) => formatInteger(f.inputTokens) },
  { column: "output", label: "Output", testId: "output", cell: (f) => formatInteger(f.outputTokens) },
  { column: "cacheRead", label: "Cache read", testId: "cache-read", cell: (f) => formatInteger(f.cacheReadTokens) },
  { column: "cacheWrite", label: "Cache write", testId: "cache-write", cell: (f) => formatInteger(f.cacheWriteTokens) },
  { column: "totalTokens", label: "Total tokens", testId: "total-tokens", cell: (f) => formatInteger(totalTokens(f)) },
  { column: "cost", label: "Cost", testId: "cost", cell: (f) => <Cost figures={f} /> },
  { column: "responses", label: "Responses", testId: "responses", cell: (f) => formatInteger(f.responses) },
];

function Cost({ figures }: Readonly<{ figures: UsageFigures }>) {
  if (figures.unpricedResponses > 0 && figures.unpricedResponses === figures.responses)
    return <span className="text-amber-800">unpriced</span>;
  return (
    <>
      {formatUsd(figures.costUsd)}
      {figures.unpricedResponses > 0 && (
        <span className="block text-xs text-amber-800">+{formatInteger(figures.unpricedResponses)} unpriced</span>
      )}
    </>
  );
}

/** A header cell that sorts by its column: a button, the order said by aria-sort and an arrow. */
function SortHeader({
  column,
  label,
  order,
  onSort,
  align,
}: Readonly<{ column: SortColumn; label: string; order: SortOrder; onSort: (column: SortColumn) => void; align: "left" | "right" }>) {
  const sorted = order.column === column ? order.direction : undefined;
  return (
    <th
      scope="col"
      aria-sort={sorted ?? "none"}
      className={`px-1 py-1 font-medium whitespace-nowrap ${align === "left" ? "text-left" : "text-right"}`}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className={`inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-zinc-200 ${sorted ? "text-zinc-900" : ""}`}
        data-testid={`sort-${column}`}
      >
        {label}
        <span aria-hidden="true" className="w-2 text-center">
          {sorted === "ascending" ? "▲" : sorted === "descending" ? "▼" : ""}
        </span>
      </button>
    </th>
  );
}

/**
 * The rows of the page's view (days, weeks, months or 5-hour blocks) with their tokens, cost and
 * responses and each model's part, sortable by any figure (time ascending first), the range's
 * totals last. It scrolls sideways inside its own focusable box, never the page.
 */
export function PeriodTable({
  rows,
  totals,
  heading,
  caption,
  blocks,
}: Readonly<{ rows: PeriodRow[]; totals: UsageFigures; heading: string; caption: string; blocks: boolean }>) {
  const [order, setOrder] = useState<SortOrder>(TIME_ORDER);
  const sorted = sortPeriodRows(rows, order);
  const onSort = (column: SortColumn) => setOrder((current) => nextSortOrder(current, column));
  return (
    <div tabIndex={0} role="region" aria-label={caption} className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-sm" data-testid="by-period">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-zinc-50 text-xs text-zinc-600">
          <tr>
            <SortHeader column="period" label={heading} order={order} onSort={onSort} align="left" />
            {blocks && (
              <th scope="col" className="px-3 py-2 text-left font-medium">
                State
              </th>
            )}
            {COLUMNS.map((column) => (
              <SortHeader key={column.column} column={column.column} label={column.label} order={order} onSort={onSort} align="right" />
            ))}
            <th scope="col" className="px-3 py-2 text-left font-medium">
              Models
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {sorted.map((row) => (
            <tr key={row.key} data-testid="by-period-row" data-key={row.key}>
              <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap" data-testid="by-period-label">
                {row.label}
              </th>
              {blocks && (
                <td className="px-3 py-2 text-left whitespace-nowrap" data-testid="by-period-state">
                  {row.status}
                  {row.forecast && <span className="mt-0.5 block max-w-64 text-xs whitespace-normal text-zinc-600">{row.forecast}</span>}
                </td>
              )}
              {COLUMNS.map((column) => (
                <td
                  key={column.column}
                  className="px-3 py-2 text-right font-mono whitespace-nowrap"
                  data-testid={`by-period-${column.testId}`}
                >
                  {column.cell(row)}
                </td>
              ))}
              <td className="min-w-48 px-3 py-2 text-left text-xs text-zinc-700" data-testid="by-period-models">
                {row.models.join("; ")}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-zinc-200 bg-zinc-50 font-medium">
          <tr data-testid="by-period-total">
            <th scope="row" className="px-3 py-2 text-left">
              Total
            </th>
            {blocks && <td />}
            {COLUMNS.map((column) => (
              <td
                key={column.column}
                className="px-3 py-2 text-right font-mono whitespace-nowrap"
                data-testid={`by-period-${column.testId}`}
              >
                {column.cell(totals)}
              </td>
            ))}
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
