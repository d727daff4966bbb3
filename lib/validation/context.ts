import { z } from "zod";

const MAX_WINDOW = 100_000_000;

/** GET /api/threads/:id/context query. A model, a context window, or both (the window then overrides). */
export const contextQuerySchema = z
  .object({
    model: z.string().trim().min(1, "must not be empty").max(200).optional(),
    contextWindow: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1_000, "must be at least 1000")
      .max(MAX_WINDOW, `must be at most ${MAX_WINDOW}`)
      .optional(),
    mode: z.enum(["exact", "pal"], { error: 'must be "exact" or "pal"' }).default("exact"),
    reserve: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").optional(),
    tokenizer: z.string().trim().min(1).max(100).optional(),
    /** Include every turn's tokens (perTurn): what the budget page draws. */
    perTurn: z
      .enum(["0", "1", "true", "false"], { error: 'must be "1" or "0"' })
      .optional()
      .transform((value) => value === "1" || value === "true"),
  })
  .superRefine((query, ctx) => {
    if (!query.model && !query.contextWindow) {
      ctx.addIssue({ code: "custom", path: ["model"], message: "give a model or a contextWindow" });
    }
  });
export type ContextQuery = z.output<typeof contextQuerySchema>;
