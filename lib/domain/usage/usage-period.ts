/**
 * Usage over time: the quarter-hours that usage aggregates are kept in, and how they fall into a
 * time zone's days, weeks and months. Aggregates are stored per UTC quarter-hour because every time
 * zone's offset is a whole number of quarter-hours (India +5:30, Nepal +5:45, Chatham +12:45), so
 * any zone's days are unions of them, daylight saving included. Pure (Intl for the zone rules).
 */

/** Quarter-hours since 1970-01-01T00:00Z: a quarter's length in milliseconds. */
export const QUARTER_MS = 15 * 60 * 1000;
export const QUARTERS_PER_DAY = 96;
const DAY_MS = 86_400_000;

export function quarterOf(at: Date): number {
  return Math.floor(at.getTime() / QUARTER_MS);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone ("Europe/Berlin", "UTC"); a name it does not know is refused, never guessed. */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone this process runs in (TZ, else the system's). */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * The zone's offset from UTC at an instant, in minutes (Berlin in summer: 120).
 * @internal exported for its tests
 */
export function offsetMinutes(timeZone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(at))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/** A calendar day as days since 1970-01-01 ("2026-03-01" -> 20513). */
export function dayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

/** "YYYY-MM-DD" of a day number. */
export function dayKey(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday that starts a day's ISO week, as "YYYY-MM-DD". */
export function weekKey(day: number): string {
  // 1970-01-01 was a Thursday: day 0 has weekday index 3 counting from Monday.
  return dayKey(day - ((day + 3) % 7));
}

/** "YYYY-MM" of a day number. */
export function monthKey(day: number): string {
  return dayKey(day).slice(0, 7);
}

/**
 * The instant a local calendar day starts in a zone (its midnight, or the first instant after a skipped one).
 * @internal exported for its tests
 */
export function localDayStart(timeZone: string, day: number): number {
  const wall = day * DAY_MS;
  // Two rounds settle the offset, even next to a change of it.
  let guess = wall - offsetMinutes(timeZone, wall) * 60_000;
  guess = wall - offsetMinutes(timeZone, guess) * 60_000;
  return guess;
}

/** The local day number of an instant in a zone. */
export function localDayOf(timeZone: string, at: number): number {
  return Math.floor((at + offsetMinutes(timeZone, at) * 60_000) / DAY_MS);
}

/** From `fromQuarter` on (until the next span), the zone's offset is `offsetQuarters` quarter-hours. */
export type OffsetSpan = { fromQuarter: number; offsetQuarters: number };

/**
 * The zone's offsets over [startQuarter, endQuarter), as spans in order, the first starting at
 * startQuarter. Found by checking each day's start and, where two differ, halving to the quarter
 * the change happens in: a year of Berlin is 3 spans from about 400 lookups.
 */
export function offsetSpans(timeZone: string, startQuarter: number, endQuarter: number): OffsetSpan[] {
  const offsetAt = (quarter: number) => Math.round(offsetMinutes(timeZone, quarter * QUARTER_MS) / 15);
  const spans: OffsetSpan[] = [{ fromQuarter: startQuarter, offsetQuarters: offsetAt(startQuarter) }];
  let previous = startQuarter;
  while (previous < endQuarter - 1) {
    const at = Math.min(previous + QUARTERS_PER_DAY, endQuarter - 1);
    const current = spans[spans.length - 1]!.offsetQuarters;
    if (offsetAt(at) === current) {
      previous = at;
      continue;
    }
    // The first quarter in (previous, at] whose offset differs.
    let low = previous;
    let high = at;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(middle) === current) low = middle;
      else high = middle;
    }
    spans.push({ fromQuarter: high, offsetQuarters: offsetAt(high) });
    previous = high;
  }
  return spans;
}

export type UsageRange = {
  /** First local day, "YYYY-MM-DD", included. */
  since: string;
  /** Last local day, "YYYY-MM-DD", included. */
  until: string;
  timeZone: string;
};

/** The quarter-hours [start, end) a range of local days covers in its zone. */
export function rangeQuarters({ since, until, timeZone }: UsageRange): { startQuarter: number; endQuarter: number } {
  return {
    startQuarter: Math.ceil(localDayStart(timeZone, dayNumber(since)) / QUARTER_MS),
    endQuarter: Math.ceil(localDayStart(timeZone, dayNumber(until) + 1) / QUARTER_MS),
  };
}

/** Without since/until: the last `days` local days up to today in the zone. */
export function defaultRange(timeZone: string, now: Date, days = 30): UsageRange {
  const today = localDayOf(timeZone, now.getTime());
  return { since: dayKey(today - days + 1), until: dayKey(today), timeZone };
}

/** A range as asked for: either end may be left open. */
export type AskedRange = { since?: string; until?: string; timeZone: string };

/** The first and last local days ("YYYY-MM-DD") that hold any of a report's data; null when none does. */
export type DataExtent = { first: string; last: string } | null;

/**
 * The range a report covers: an open `since` is the data's first day, an open `until` is today,
 * and a range wider than the data is cut to the data's days, so "since 2000" is not refused and
 * does not read 26 years of empty days. `overlaps` is false when no day of the range holds data
 * (the range is then the asked one, for the page to name).
 */
export function resolveRange(asked: AskedRange, extent: DataExtent, today: string): { range: UsageRange; overlaps: boolean } {
  const since = asked.since ?? extent?.first ?? today;
  const until = asked.until ?? today;
  const asGiven = { since, until, timeZone: asked.timeZone };
  if (!extent || since > extent.last || until < extent.first) return { range: asGiven, overlaps: false };
  return {
    range: {
      since: since < extent.first ? extent.first : since,
      until: until > extent.last ? extent.last : until,
      timeZone: asked.timeZone,
    },
    overlaps: true,
  };
}
