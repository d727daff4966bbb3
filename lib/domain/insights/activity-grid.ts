/**
 * The activity heatmap's grid: a row per local day of the range (or, for a long range, per
 * weekday, the range's days summed), a column per hour, each cell named for screen readers and
 * shaded by its turns. Pure.
 */
import { dayKey, dayNumber } from "../usage/usage-period";
import { formatDay } from "../usage/usage-chart";
import type { ActivityCell } from "./insights-report";

/**
 * A range of more days than this is folded onto the seven weekdays (a row per day would no longer fit a screen).
 * @internal exported for its tests
 */
export const MAX_DAY_ROWS = 35;
/** Shades besides "none": a cell's level is 1..LEVELS by its share of the busiest cell's turns. */
const LEVELS = 4;

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
const WEEKDAY_PLURALS = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"] as const;

type GridCell = { hour: number; turns: number; responses: number; level: number; name: string };
type GridRow = { key: string; label: string; cells: GridCell[] };
/** The turns a shade stands for, from and to (included). */
type LegendStep = { level: number; from: number; to: number };

export type ActivityGrid = {
  /** "day": a row per local day; "weekday": Monday to Sunday, each the sum of the range's days that are one. */
  rows: "day" | "weekday";
  grid: GridRow[];
  legend: LegendStep[];
  totalTurns: number;
  /** The hours of the day with the most turns over the range, busiest first (at most 3). */
  busiestHours: { hour: number; turns: number }[];
};

/** Monday 0 .. Sunday 6 of a "YYYY-MM-DD" day. */
function weekdayIndex(day: string): number {
  // 1970-01-01 was a Thursday (index 3 counting from Monday).
  return (((dayNumber(day) + 3) % 7) + 7) % 7;
}

/** "14:00–15:00". */
function hourSpan(hour: number): string {
  const pad = (h: number) => `${String(h).padStart(2, "0")}:00`;
  return `${pad(hour)}–${pad(hour + 1)}`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * A cell's accessible name: "Tue 3 Nov, 14:00–15:00: 42 turns, 12 responses".
 * @internal exported for its tests
 */
export function cellName(rowLabel: string, hour: number, turns: number, responses: number): string {
  const figures = turns === 0 && responses === 0 ? "no turns" : `${plural(turns, "turn")}, ${plural(responses, "response")}`;
  return `${rowLabel}, ${hourSpan(hour)}: ${figures}`;
}

/** 0 for no turns, else 1..LEVELS by the share of the busiest cell's turns. */
function levelOf(turns: number, max: number): number {
  return turns === 0 || max === 0 ? 0 : Math.max(1, Math.ceil((turns / max) * LEVELS));
}

/** The turns each shade stands for; shades no count reaches (a busiest cell of 2 turns) are left out. */
function legendSteps(max: number): LegendStep[] {
  const steps: LegendStep[] = [];
  for (let level = 1; level <= LEVELS; level++) {
    const from = Math.floor((max * (level - 1)) / LEVELS) + 1;
    const to = Math.floor((max * level) / LEVELS);
    if (from <= to) steps.push({ level, from, to });
  }
  return steps;
}

/**
 * The grid for a range's activity. Days outside since..until are ignored; a range of at most
 * MAX_DAY_ROWS days is a row per day, a longer one a row per weekday (Monday first).
 */
export function activityGrid(activity: readonly ActivityCell[], since: string, until: string): ActivityGrid {
  const first = dayNumber(since);
  const last = dayNumber(until);
  const byDay = last - first + 1 <= MAX_DAY_ROWS;
  const rowKeys = byDay ? Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => dayKey(first + i)) : [...WEEKDAYS];
  const sums = new Map<string, { turns: number; responses: number }>();
  const hourTurns = new Array<number>(24).fill(0);
  for (const cell of activity) {
    if (cell.day < since || cell.day > until || cell.hour < 0 || cell.hour > 23) continue;
    const key = `${byDay ? cell.day : WEEKDAYS[weekdayIndex(cell.day)]}|${cell.hour}`;
    const sum = sums.get(key) ?? { turns: 0, responses: 0 };
    sum.turns += cell.turns;
    sum.responses += cell.responses;
    sums.set(key, sum);
    hourTurns[cell.hour]! += cell.turns;
  }
  const max = Math.max(0, ...[...sums.values()].map((sum) => sum.turns));
  const grid = rowKeys.map((key, index) => {
    const label = byDay ? `${WEEKDAYS[weekdayIndex(key)]} ${formatDay(key)}` : key;
    const spoken = byDay ? label : WEEKDAY_PLURALS[index]!;
    const cells = Array.from({ length: 24 }, (_, hour) => {
      const { turns, responses } = sums.get(`${key}|${hour}`) ?? { turns: 0, responses: 0 };
      return { hour, turns, responses, level: levelOf(turns, max), name: cellName(spoken, hour, turns, responses) };
    });
    return { key, label, cells };
  });
  const busiestHours = hourTurns
    .map((turns, hour) => ({ hour, turns }))
    .filter((hour) => hour.turns > 0)
    .sort((a, b) => b.turns - a.turns || a.hour - b.hour)
    .slice(0, 3);
  return {
    rows: byDay ? "day" : "weekday",
    grid,
    legend: legendSteps(max),
    totalTurns: hourTurns.reduce((total, turns) => total + turns, 0),
    busiestHours,
  };
}

/** The visible sentence under the heatmap: "Busiest hours: 14:00–15:00 (120 turns), …". */
export function busiestHoursSentence(grid: ActivityGrid): string {
  if (grid.busiestHours.length === 0) return "No turns in this range.";
  const hours = grid.busiestHours.map((hour) => `${hourSpan(hour.hour)} (${plural(hour.turns, "turn")})`);
  return `Busiest hours: ${hours.join(", ")}, of ${plural(grid.totalTurns, "turn")} in the range.`;
}
