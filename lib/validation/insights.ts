import { z } from "zod";
import type { InsightsFilters } from "@/lib/domain/insights/insights-report";
import { dayKey, dayNumber, isTimeZone, localDayOf, serverTimeZone, type AskedRange } from "@/lib/domain/usage/usage-period";
import { calendarDay, reportFilter } from "./usage";

type InsightsAsked = { range: AskedRange; filters: InsightsFilters };

/**
 * GET /api/insights's query: the range as usage reports take it (local days in `tz`, unknown
 * parameters refused by name), with open ends: without since and until the last 30 days up to
 * today; since alone runs to today; until alone starts at the data's first day. A range wider than
 * the data is cut to it (lib/domain/usage/usage-period.ts resolveRange), so no length limit.
 */
export function insightsQuerySchema(now: () => Date = () => new Date()) {
  return z
    .looseObject({
      since: calendarDay.optional(),
      until: calendarDay.optional(),
      tz: z.string().refine(isTimeZone, "is not a time zone this server knows (use an IANA name such as Europe/Berlin or UTC)").optional(),
      source: reportFilter,
      project: reportFilter,
      model: reportFilter,
    })
    .superRefine((query, ctx) => {
      for (const key of Object.keys(query)) {
        if (!KNOWN.has(key))
          ctx.addIssue({ code: "custom", path: [key], message: `is not a parameter of insights (they are ${[...KNOWN].join(", ")})` });
      }
    })
    .transform((query, ctx): InsightsAsked => {
      const timeZone = query.tz ?? serverTimeZone();
      let since = query.since;
      if (since === undefined && query.until === undefined) since = dayKey(localDayOf(timeZone, now().getTime()) - 29);
      if (since !== undefined && query.until !== undefined && dayNumber(since) > dayNumber(query.until)) {
        ctx.addIssue({ code: "custom", path: ["until"], message: `must not be before since (${since})` });
        return z.NEVER;
      }
      const { source, project, model } = query;
      const filters = Object.fromEntries(Object.entries({ source, project, model }).filter(([, v]) => v !== undefined)) as InsightsFilters;
      return {
        range: { timeZone, ...(since !== undefined ? { since } : {}), ...(query.until !== undefined ? { until: query.until } : {}) },
        filters,
      };
    });
}

const KNOWN = new Set(["since", "until", "tz", "source", "project", "model"]);
