"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { formatUsd } from "@/lib/domain/usage/cost";
import { formatDay, type ChartDay, type ChartSeries, type DailyChart } from "@/lib/domain/usage/usage-chart";

type Props = { chart: DailyChart; label: string };

/**
 * Each day's cost as a bar stacked by model, a tooltip per day with each model's part. The same
 * figures are in a table beside it for screen readers (and tests): a chart alone says nothing to
 * them. Series are keyed by index: a model name with a dot ("claude-3.5-sonnet") would be a path
 * to recharts.
 */
export function DailyCostChart({ chart, label }: Readonly<Props>) {
  if (chart.series.length === 0) {
    return (
      <p className="text-sm text-zinc-600" data-testid="chart-nothing-priced">
        No response in this range has a known price, so there is no cost to draw; the tables count their tokens.
      </p>
    );
  }
  const data = chart.days.map((day) => ({
    day: day.day,
    ...Object.fromEntries(chart.series.map((series, i) => [`s${i}`, day.costs[series.key] ?? 0])),
  }));
  const byDay = new Map(chart.days.map((day) => [day.day, day]));

  const costed = chart.days.filter((day) => day.totalUsd > 0);
  return (
    <figure aria-label={label} className="min-w-0">
      <div className="h-64 w-full">
        <BarChart responsive data={data} style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e4e4e7" />
          <XAxis
            dataKey="day"
            tickFormatter={(day: string) => formatDay(day)}
            minTickGap={16}
            tick={{ fontSize: 11, fill: "#52525b" }}
            tickLine={false}
            axisLine={{ stroke: "#d4d4d8" }}
          />
          <YAxis
            tickFormatter={(value: number) => formatUsd(value)}
            width={56}
            tick={{ fontSize: 11, fill: "#52525b" }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            content={({ active, label: day }: TooltipContentProps) => (
              <DayTooltip entry={active && typeof day === "string" ? byDay.get(day) : undefined} series={chart.series} />
            )}
            cursor={{ fill: "#f4f4f5" }}
            isAnimationActive={false}
          />
          {chart.series.map((series, i) => (
            <Bar
              key={series.key}
              dataKey={`s${i}`}
              name={series.label}
              stackId="cost"
              fill={series.color}
              isAnimationActive={false}
              maxBarSize={48}
            />
          ))}
        </BarChart>
      </div>
      <figcaption className="mt-2">
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-700" aria-label="Models in the chart">
          {chart.series.map((series) => (
            <li key={series.key} className="flex min-w-0 items-baseline gap-1.5">
              <span aria-hidden="true" className="inline-block size-2.5 shrink-0 rounded-sm" style={{ backgroundColor: series.color }} />
              <span className="min-w-0 break-all">{series.label}</span>
              <span className="font-mono text-zinc-900">{formatUsd(series.costUsd)}</span>
            </li>
          ))}
        </ul>
      </figcaption>
      {/* sr-only on a wrapper, and the table fixed to a pixel: a table is never narrower than its
          cells otherwise, and a wide one, clipped or not, reaches past a phone's screen. */}
      <div className="sr-only">
        <table className="w-px table-fixed whitespace-normal">
          <caption>{label}: each day with a cost, and each model&apos;s part of it</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Cost</th>
              <th scope="col">By model</th>
            </tr>
          </thead>
          <tbody>
            {costed.map((day) => (
              <tr key={day.day} data-testid="chart-day" data-day={day.day}>
                <th scope="row">{day.day}</th>
                <td data-testid="chart-day-cost">{formatUsd(day.totalUsd)}</td>
                <td>
                  {chart.series
                    .filter((series) => (day.costs[series.key] ?? 0) > 0)
                    .map((series) => `${series.label} ${formatUsd(day.costs[series.key]!)}`)
                    .join("; ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** One day's cost and each model's part of it. */
function DayTooltip({ entry, series }: Readonly<{ entry: ChartDay | undefined; series: ChartSeries[] }>) {
  if (!entry) return null;
  const parts = series.filter((s) => (entry.costs[s.key] ?? 0) > 0);
  return (
    <div className="max-w-72 rounded border border-zinc-200 bg-white p-2 text-xs shadow-md" data-testid="chart-tooltip">
      <p className="font-medium text-zinc-900">
        {formatDay(entry.day, true)}: {formatUsd(entry.totalUsd)}
      </p>
      {parts.length > 0 && (
        <ul className="mt-1 space-y-0.5">
          {parts.map((s) => (
            <li key={s.key} className="flex items-baseline gap-1.5">
              <span aria-hidden="true" className="inline-block size-2 shrink-0 rounded-sm" style={{ backgroundColor: s.color }} />
              <span className="min-w-0 break-all text-zinc-700">{s.label}</span>
              <span className="ml-auto pl-2 font-mono text-zinc-900">{formatUsd(entry.costs[s.key]!)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
