import { z } from "zod";
import { defaultRange, isTimeZone, serverTimeZone } from "@/lib/domain/usage/usage-period";
import { USAGE_GROUPS, USAGE_ORDERS, type UsageQuery } from "@/lib/domain/usage/usage-report";
import { decimalInteger } from "./numbers";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date as YYYY-MM-DD", abort: true })
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, "is not a calendar date");

const filter = z.string().max(1_000, "must be at most 1000 characters").optional();

/** What a query without since and until covers: the API and the page, the last 30 days; the command line, all time (as ccusage). */
export type Undated = "last-30-days" | "all-time";

/**
 * GET /api/usage's query (and `npm run usage`'s options): unknown parameters are refused by name,
 * so a typo (`groupby=`) is not silently ignored. The range is yielded as asked, either end open
 * (usageReport resolves it against the data: an open since is the data's first day, an open until
 * today); without both, `undated` says what it covers. `now` fixes "today" for tests.
 */
export function usageQuerySchema(now: () => Date = () => new Date(), undated: Undated = "last-30-days") {
  return z
    .looseObject({
      groupBy: z.enum(USAGE_GROUPS, { error: `must be one of ${USAGE_GROUPS.join(", ")}` }).default("day"),
      since: day.optional(),
      until: day.optional(),
      tz: z.string().refine(isTimeZone, "is not a time zone this server knows (use an IANA name such as Europe/Berlin or UTC)").optional(),
      source: filter,
      project: filter,
      model: filter,
      breakdown: z.literal("model", { error: "must be model" }).optional(),
      limit: decimalInteger(1, 10_000).optional(),
      order: z.enum(USAGE_ORDERS, { error: `must be one of ${USAGE_ORDERS.join(", ")}` }).optional(),
      perThread: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
      tokenLimit: z
        .union([z.literal("max"), decimalInteger(1, Number.MAX_SAFE_INTEGER)], { error: "must be a whole number of tokens or max" })
        .optional(),
    })
    .superRefine((query, ctx) => {
      for (const key of Object.keys(query)) {
        if (!KNOWN.has(key))
          ctx.addIssue({ code: "custom", path: [key], message: `is not a parameter of usage reports (they are ${[...KNOWN].join(", ")})` });
      }
      if (query.perThread !== undefined && query.groupBy !== "thread")
        ctx.addIssue({ code: "custom", path: ["perThread"], message: "applies to sessions (groupBy=thread, the session command) only" });
      if (query.tokenLimit !== undefined && query.groupBy !== "block")
        ctx.addIssue({
          code: "custom",
          path: ["tokenLimit"],
          message: "applies to 5-hour blocks (groupBy=block, the blocks command) only",
        });
    })
    .transform((query, ctx): UsageQuery => {
      const timeZone = query.tz ?? serverTimeZone();
      let { since, until } = query;
      if (since === undefined && until === undefined && undated === "last-30-days") ({ since, until } = defaultRange(timeZone, now()));
      if (since !== undefined && until !== undefined && since > until) {
        ctx.addIssue({ code: "custom", path: ["until"], message: `must not be before since (${since})` });
        return z.NEVER;
      }
      const { source, project, model, breakdown, limit, groupBy, order, tokenLimit } = query;
      const perThread = query.perThread === "true" ? true : undefined;
      return {
        groupBy,
        timeZone,
        ...definedOnly({ since, until, source, project, model, breakdown, limit, order, perThread, tokenLimit }),
      };
    });
}

const KNOWN = new Set([
  "groupBy",
  "since",
  "until",
  "tz",
  "source",
  "project",
  "model",
  "breakdown",
  "limit",
  "order",
  "perThread",
  "tokenLimit",
]);

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
