/**
 * The /usage page's views of one range: per day, per ISO week (keyed by its Monday), per month and
 * per 5-hour block. What each view's periods are, how a period reads in the page's zone, how the
 * period table sorts, and what a block says about itself. Pure (Intl for the zone's clock).
 */
import { formatUsd } from "./cost";
import { dayKey, dayNumber, monthKey, weekKey } from "./usage-period";
import type { UsageBlockFields, UsageFigures } from "./usage-report";

export const USAGE_VIEWS = ["day", "week", "month", "block"] as const;
export type UsageView = (typeof USAGE_VIEWS)[number];
export type CalendarView = Exclude<UsageView, "block">;

/** Every period of a calendar view that touches since..until, in time order: the chart's axis (periods without usage as zeros). */
export function periodKeys(view: CalendarView, since: string, until: string): string[] {
  const keyOf = view === "day" ? dayKey : view === "week" ? weekKey : monthKey;
  const keys: string[] = [];
  for (let day = dayNumber(since); day <= dayNumber(until); day++) {
    const key = keyOf(day);
    if (keys.at(-1) !== key) keys.push(key);
  }
  return keys;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-02-03" -> "3 Feb 2026". No locale: the server and the browser write the same. */
function dayLabel(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]} ${year}`;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant's local date and time in a zone: "3 Feb 2026, 14:00".
 * @internal exported for its tests
 */
export function formatInstant(iso: string, timeZone: string, withDate = true): string {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    });
    clocks.set(timeZone, clock);
  }
  const parts: Record<string, string> = {};
  for (const part of clock.formatToParts(new Date(iso))) parts[part.type] = part.value;
  const time = `${parts.hour!.padStart(2, "0")}:${parts.minute!.padStart(2, "0")}`;
  return withDate ? `${parts.day} ${MONTHS[Number(parts.month) - 1]} ${parts.year}, ${time}` : time;
}

/** How a period's key reads: "3 Feb 2026", "Week of 2 Feb 2026", "Feb 2026", or a block's start in the zone. */
export function periodLabel(view: UsageView, key: string, timeZone: string): string {
  if (view === "day") return dayLabel(key);
  if (view === "week") return `Week of ${dayLabel(key)}`;
  if (view === "month") {
    const [year, month] = key.split("-").map(Number) as [number, number];
    return `${MONTHS[month - 1]} ${year}`;
  }
  return formatInstant(key, timeZone);
}

/** The heading of the period column. */
export const PERIOD_HEADINGS: Record<UsageView, string> = { day: "Day", week: "Week", month: "Month", block: "Block (5 hours)" };

/** Input, output, cache reads and cache writes: what a response was billed for (reasoning is a part of output). */
export function totalTokens(figures: UsageFigures): number {
  return figures.inputTokens + figures.outputTokens + figures.cacheReadTokens + figures.cacheWriteTokens;
}

export type SortColumn = "period" | "input" | "output" | "cacheRead" | "cacheWrite" | "totalTokens" | "cost" | "responses";
export type SortOrder = { column: SortColumn; direction: "ascending" | "descending" };
/** The period table's order until a header is chosen: time ascending. */
export const TIME_ORDER: SortOrder = { column: "period", direction: "ascending" };

const SORT_VALUES: Record<Exclude<SortColumn, "period">, (figures: UsageFigures) => number> = {
  input: (f) => f.inputTokens,
  output: (f) => f.outputTokens,
  cacheRead: (f) => f.cacheReadTokens,
  cacheWrite: (f) => f.cacheWriteTokens,
  totalTokens,
  cost: (f) => f.costUsd,
  responses: (f) => f.responses,
};

/**
 * Rows in a column's order, ties in time order (a key is a day, a Monday, a month or an ISO
 * instant, so its text order is time order). A new array; the rows are not moved.
 */
export function sortPeriodRows<R extends UsageFigures & { key: string }>(rows: readonly R[], order: SortOrder): R[] {
  const byTime = (a: R, b: R) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const sign = order.direction === "ascending" ? 1 : -1;
  const { column } = order;
  if (column === "period") return [...rows].sort((a, b) => sign * byTime(a, b));
  const value = SORT_VALUES[column];
  return [...rows].sort((a, b) => sign * (value(a) - value(b)) || byTime(a, b));
}

/** What choosing a column's header does: the same column turns its direction; another starts ascending for time, descending for figures. */
export function nextSortOrder(current: SortOrder, column: SortColumn): SortOrder {
  if (current.column === column) return { column, direction: current.direction === "ascending" ? "descending" : "ascending" };
  return { column, direction: column === "period" ? "ascending" : "descending" };
}

/** "2 h 05 min", "45 min". */
function formatMinutes(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const hours = Math.floor(whole / 60);
  return hours > 0 ? `${hours} h ${String(whole % 60).padStart(2, "0")} min` : `${whole} min`;
}

/** "1.2M", "12.3k", "950": a projection is an estimate, so its tokens are rounded. */
function roughTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(Math.round(n));
}

type Block = Pick<UsageBlockFields, "start" | "end" | "lastResponseAt" | "isActive" | "burnRate" | "projection">;

/** A block's state: how long it ran (its start to its last response), or, while it is open, the minutes left of its 5 hours. */
export function blockStatus(block: Block, now: Date): string {
  if (!block.isActive) return `${formatMinutes((Date.parse(block.lastResponseAt) - Date.parse(block.start)) / 60_000)} used`;
  const left = block.projection?.remainingMinutes ?? (Date.parse(block.end) - now.getTime()) / 60_000;
  return `active — ${formatMinutes(left)} left`;
}

/** The open block's pace and where it leads, as sentences; null for a closed block or one without a rate yet. */
export function blockForecast(block: Block, timeZone: string): string | null {
  if (!block.isActive || !block.burnRate || !block.projection) return null;
  const { tokensPerMinute, costUsdPerMinute } = block.burnRate;
  const { totalTokens: tokens, costUsd } = block.projection;
  return (
    `Using ${roughTokens(tokensPerMinute)} tokens and ${formatUsd(costUsdPerMinute)} a minute. ` +
    `At this rate: ${roughTokens(tokens)} tokens and ${formatUsd(costUsd)} by ${formatInstant(block.end, timeZone, false)}.`
  );
}
