import { z } from "zod";
import { uuidSchema } from "@/lib/domain/schemas";
import { SHARE_EXPIRY_HOURS } from "@/lib/domain/sharing/share-links";

/** POST /api/threads/:id/shares: how long the link works (hours), and whether it shows the sub-agents too. */
export const createShareSchema = z.strictObject({
  expiresInHours: z
    .number({ error: "must be a whole number of hours" })
    .int("must be a whole number of hours")
    .min(SHARE_EXPIRY_HOURS.min, `must be at least ${SHARE_EXPIRY_HOURS.min} hour`)
    .max(SHARE_EXPIRY_HOURS.max, `must be at most ${SHARE_EXPIRY_HOURS.max} hours (a year)`)
    .default(SHARE_EXPIRY_HOURS.default),
  subagents: z.boolean({ error: "must be true or false" }).default(false),
});
export type CreateShareInput = z.output<typeof createShareSchema>;

/** GET /api/shares: optionally one thread's links only. */
export const listSharesQuerySchema = z.strictObject({ threadId: uuidSchema.optional() });
