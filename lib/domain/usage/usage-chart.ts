/**
 * The /usage page's cost chart, as data: each period of the view (a day, week, month or 5-hour
 * block; periods without usage as zeros), its cost per model, the models as stacked series, the costliest first, and each model's colour.
 * A colour follows from the model's name, so a model keeps its colour when the range or the
 * filters change; two models of one chart never share one. Pure.
 */
import type { UsageRow } from "./usage-report";

/**
 * Tableau 10 without its grey: told apart by most readers, colour-blind ones included; grey is kept for "other models".
 * @internal exported for its tests
 */
export const SERIES_COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"] as const;
/** @internal exported for its tests */
export const OTHER_COLOR = "#a1a1aa";
/**
 * The key of the series that gathers the models past the chart's first ones.
 * @internal exported for its tests
 */
export const OTHER_KEY = "\u0000other";

/**
 * The key of the one series a report without breakdown=model draws (5-hour blocks come without).
 * @internal exported for its tests
 */
export const ALL_MODELS_KEY = "\u0000all";

/** A row's cost per model; a row without a breakdown, its whole cost as all models'. */
function costParts(row: UsageRow): { key: string; costUsd: number }[] {
  return row.breakdown ?? [{ key: ALL_MODELS_KEY, costUsd: row.costUsd }];
}

export type ChartSeries = { key: string; label: string; color: string; costUsd: number };
export type ChartPeriod = { key: string; totalUsd: number; costs: Record<string, number> };
export type CostChart = { series: ChartSeries[]; periods: ChartPeriod[] };

/** A string's FNV-1a hash: the same everywhere, unlike anything keyed on a Map's order. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A colour per model: the one its name hashes to, or, when another model of the set took it, the
 * next free one. Models are placed in name order, so the same set always gets the same colours.
 * @internal exported for its tests
 */
export function seriesColors(models: readonly string[]): Map<string, string> {
  const colors = new Map<string, string>();
  const taken = new Set<number>();
  for (const model of [...new Set(models)].sort()) {
    let index = hash(model) % SERIES_COLORS.length;
    for (let tries = 0; taken.has(index) && tries < SERIES_COLORS.length; tries++) index = (index + 1) % SERIES_COLORS.length;
    taken.add(index);
    colors.set(model, SERIES_COLORS[index]!);
  }
  return colors;
}

/** How a model key reads: "" is the responses without a model. */
export function modelLabel(key: string): string {
  return key === "" ? "(no model)" : key;
}

/**
 * The chart of a report with breakdown=model over the periods `keys` (the rows' keys, in time
 * order: every day, week or month of the range, or the blocks that hold usage). Models that cost
 * nothing in the range (unpriced ones) draw no bar and get no series; past `maxSeries` models the
 * cheapest are summed into one "other models" series. Rows without a breakdown draw one series of
 * all models.
 */
export function costChart(rows: readonly UsageRow[], keys: readonly string[], maxSeries = 8): CostChart {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const perModel = new Map<string, number>();
  for (const row of rows) for (const part of costParts(row)) perModel.set(part.key, (perModel.get(part.key) ?? 0) + part.costUsd);
  const ranked = [...perModel].filter(([, cost]) => cost > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const shown = ranked.length > maxSeries ? ranked.slice(0, maxSeries - 1) : ranked;
  const rest = ranked.slice(shown.length);
  const colors = seriesColors(shown.map(([model]) => model));
  const series: ChartSeries[] = shown.map(([model, costUsd]) => ({
    key: model,
    label: model === ALL_MODELS_KEY ? "All models" : modelLabel(model),
    color: model === ALL_MODELS_KEY ? SERIES_COLORS[0] : colors.get(model)!,
    costUsd,
  }));
  if (rest.length > 0) {
    series.push({
      key: OTHER_KEY,
      label: `${rest.length} other models`,
      color: OTHER_COLOR,
      costUsd: rest.reduce((sum, [, cost]) => sum + cost, 0),
    });
  }
  const inSeries = new Set(shown.map(([model]) => model));

  const periods = keys.map((key): ChartPeriod => {
    const costs: Record<string, number> = {};
    const row = byKey.get(key);
    for (const part of row ? costParts(row) : []) {
      if (part.costUsd <= 0) continue;
      const seriesKey = inSeries.has(part.key) ? part.key : OTHER_KEY;
      costs[seriesKey] = (costs[seriesKey] ?? 0) + part.costUsd;
    }
    return { key, totalUsd: row?.costUsd ?? 0, costs };
  });
  return { series, periods };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-02-03" -> "3 Feb"; with the year, "3 Feb 2026". No locale: the server and the browser write the same. */
export function formatDay(day: string, withYear = false): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]}${withYear ? ` ${year}` : ""}`;
}
