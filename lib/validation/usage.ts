import { z } from "zod";
import { dayNumber, defaultRange, isTimeZone, serverTimeZone } from "@/lib/domain/usage/usage-period";
import { USAGE_GROUPS, type UsageQuery } from "@/lib/domain/usage/usage-report";
import { decimalInteger } from "./numbers";

/** The longest range a report covers: ten years of days. */
const MAX_RANGE_DAYS = 3_660;

/** A calendar day as YYYY-MM-DD (usage and insights ranges). */
export const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date as YYYY-MM-DD", abort: true })
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, "is not a calendar date");

const filter = z.string().max(1_000, "must be at most 1000 characters").optional();

/**
 * GET /api/usage's query (and `npm run usage`'s options): unknown parameters are refused by name,
 * so a typo (`groupby=`) is not silently ignored. Without since/until, the last 30 days up to today
 * in `tz`; with one of them, the other defaults to 30 days away. `now` fixes "today" for tests.
 */
export function usageQuerySchema(now: () => Date = () => new Date()) {
  return z
    .looseObject({
      groupBy: z.enum(USAGE_GROUPS, { error: `must be one of ${USAGE_GROUPS.join(", ")}` }).default("day"),
      since: calendarDay.optional(),
      until: calendarDay.optional(),
      tz: z.string().refine(isTimeZone, "is not a time zone this server knows (use an IANA name such as Europe/Berlin or UTC)").optional(),
      source: filter,
      project: filter,
      model: filter,
      breakdown: z.literal("model", { error: "must be model" }).optional(),
      limit: decimalInteger(1, 10_000).optional(),
    })
    .superRefine((query, ctx) => {
      for (const key of Object.keys(query)) {
        if (!KNOWN.has(key))
          ctx.addIssue({ code: "custom", path: [key], message: `is not a parameter of usage reports (they are ${[...KNOWN].join(", ")})` });
      }
    })
    .transform((query, ctx): UsageQuery => {
      const timeZone = query.tz ?? serverTimeZone();
      const fallback = defaultRange(timeZone, now());
      let since = query.since ?? fallback.since;
      let until = query.until ?? fallback.until;
      if (query.since && !query.until) until = shifted(since, 29);
      if (query.until && !query.since) since = shifted(until, -29);
      if (dayNumber(since) > dayNumber(until)) {
        ctx.addIssue({ code: "custom", path: ["until"], message: `must not be before since (${since})` });
        return z.NEVER;
      }
      if (dayNumber(until) - dayNumber(since) + 1 > MAX_RANGE_DAYS) {
        ctx.addIssue({ code: "custom", path: ["since"], message: `the range may cover at most ${MAX_RANGE_DAYS} days` });
        return z.NEVER;
      }
      const { source, project, model, breakdown, limit, groupBy } = query;
      return { groupBy, since, until, timeZone, ...definedOnly({ source, project, model, breakdown, limit }) };
    });
}

const KNOWN = new Set(["groupBy", "since", "until", "tz", "source", "project", "model", "breakdown", "limit"]);

function shifted(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * 86_400_000).toISOString().slice(0, 10);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
