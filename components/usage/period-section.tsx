import { formatUsd } from "@/lib/domain/usage/cost";
import { costChart, formatDay, modelLabel } from "@/lib/domain/usage/usage-chart";
import { csvFilename, usageCsv } from "@/lib/domain/usage/usage-csv";
import type { UsageRange } from "@/lib/domain/usage/usage-period";
import type { UsageFigures, UsageRow } from "@/lib/domain/usage/usage-report";
import { blockForecast, blockStatus, PERIOD_HEADINGS, periodKeys, periodLabel, type UsageView } from "@/lib/domain/usage/usage-views";
import { CostChart } from "./cost-chart";
import { CsvDownload } from "./csv-download";
import { PeriodTable, type PeriodRow } from "./period-table";

const NOUNS: Record<UsageView, string> = { day: "day", week: "week", month: "month", block: "5-hour block" };

/** A row's models as the table lists them: each one's part of the cost, or, without a breakdown, a block's models. */
function modelParts(row: UsageRow): string[] {
  if (!row.breakdown) return (row.models ?? []).map(modelLabel);
  return row.breakdown.map((part) => {
    const unpriced = part.responses > 0 && part.unpricedResponses === part.responses;
    return `${modelLabel(part.key)} ${unpriced ? "unpriced" : formatUsd(part.costUsd)}`;
  });
}

/** A block row's state and forecast (nothing for a day, week or month). */
function blockState(row: UsageRow, timeZone: string, now: Date): Pick<PeriodRow, "status" | "forecast"> {
  const { start, end, lastResponseAt, isActive } = row;
  if (!start || !end || !lastResponseAt || isActive === undefined) return {};
  const block = {
    start,
    end,
    lastResponseAt,
    isActive,
    ...(row.burnRate && { burnRate: row.burnRate }),
    ...(row.projection && { projection: row.projection }),
  };
  return { status: blockStatus(block, now), forecast: blockForecast(block, timeZone) };
}

/**
 * The range in the page's view: a chart of each period's cost by model, and under it the period
 * table (sortable, with the totals and a CSV download). Labels are written here, on the server,
 * in the page's zone, so the browser shows the same text.
 */
export function PeriodSection({
  view,
  rows,
  totals,
  range,
  now,
}: Readonly<{ view: UsageView; rows: UsageRow[]; totals: UsageFigures; range: UsageRange; now: Date }>) {
  const { since, until, timeZone } = range;
  const noun = NOUNS[view];
  const span = `${formatDay(since, true)} to ${formatDay(until, true)}`;
  const keys = view === "block" ? rows.map((row) => row.key) : periodKeys(view, since, until);
  const titles = Object.fromEntries(keys.map((key) => [key, periodLabel(view, key, timeZone)]));
  const ticks = view === "day" || view === "week" ? Object.fromEntries(keys.map((key) => [key, formatDay(key)])) : titles;
  const periodRows: PeriodRow[] = rows.map((row) => ({
    ...row,
    label: titles[row.key] ?? periodLabel(view, row.key, timeZone),
    models: modelParts(row),
    ...blockState(row, timeZone, now),
  }));
  return (
    <section aria-labelledby="period-title" className="min-w-0 space-y-3 rounded-lg border border-zinc-200 bg-white p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="period-title" className="text-lg font-semibold tracking-tight">
          Cost per {noun}
        </h2>
        {rows.length > 0 && (
          <CsvDownload csv={usageCsv(view, rows)} filename={csvFilename(view, since, until)} table={`the table per ${noun}`} />
        )}
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="period-empty">
          {view === "block"
            ? "No 5-hour blocks in this range: none of its responses has a time to place it in one."
            : `No ${noun} of this range has usage.`}
        </p>
      ) : (
        <>
          <CostChart chart={costChart(rows, keys)} label={`Cost per ${noun} by model, ${span}`} ticks={ticks} titles={titles} />
          <PeriodTable
            rows={periodRows}
            totals={totals}
            heading={PERIOD_HEADINGS[view]}
            caption={`Tokens, cost and responses per ${noun}, ${span}`}
            blocks={view === "block"}
          />
        </>
      )}
    </section>
  );
}
