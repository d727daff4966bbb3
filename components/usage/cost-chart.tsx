"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { formatUsd } from "@/lib/domain/usage/cost";
import type { ChartPeriod, ChartSeries, CostChart as CostChartData } from "@/lib/domain/usage/usage-chart";

type Props = {
  chart: CostChartData;
  label: string;
  /** Each period's label on the axis ("3 Feb") and in the tooltip ("3 Feb 2026"), worked out by the server in the page's zone. */
  ticks: Record<string, string>;
  titles: Record<string, string>;
};

/**
 * Each period's cost (a day, week, month or 5-hour block) as a bar stacked by model, a tooltip per
 * period with each model's part. The same figures, each model's part included, are in the period
 * table under it: a chart alone says nothing to a screen reader. Series are keyed by index: a model name with
 * a dot ("claude-3.5-sonnet") would be a path to recharts.
 */
export function CostChart({ chart, label, ticks, titles }: Readonly<Props>) {
  if (chart.series.length === 0) {
    return (
      <p className="text-sm text-zinc-600" data-testid="chart-nothing-priced">
        No response in this range has a known price, so there is no cost to draw; the tables count their tokens.
      </p>
    );
  }
  const data = chart.periods.map((period) => ({
    key: period.key,
    ...Object.fromEntries(chart.series.map((series, i) => [`s${i}`, period.costs[series.key] ?? 0])),
  }));
  const byKey = new Map(chart.periods.map((period) => [period.key, period]));

  return (
    <figure aria-label={label} className="min-w-0">
      <div className="h-64 w-full">
        <BarChart responsive data={data} style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e4e4e7" />
          <XAxis
            dataKey="key"
            tickFormatter={(key: string) => ticks[key] ?? key}
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
            content={({ active, label: key }: TooltipContentProps) => (
              <PeriodTooltip
                entry={active && typeof key === "string" ? byKey.get(key) : undefined}
                title={typeof key === "string" ? (titles[key] ?? key) : ""}
                series={chart.series}
              />
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
    </figure>
  );
}

/** One period's cost and each model's part of it. */
function PeriodTooltip({ entry, title, series }: Readonly<{ entry: ChartPeriod | undefined; title: string; series: ChartSeries[] }>) {
  if (!entry) return null;
  const parts = series.filter((s) => (entry.costs[s.key] ?? 0) > 0);
  return (
    <div className="max-w-72 rounded border border-zinc-200 bg-white p-2 text-xs shadow-md" data-testid="chart-tooltip">
      <p className="font-medium text-zinc-900">
        {title}: {formatUsd(entry.totalUsd)}
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
