import { z } from "zod";
import { decimalInteger } from "./numbers";
import { queryFlag } from "./query";

const MAX_WINDOW = 100_000_000;

/** GET /api/threads/:id/context query. A model, a context window, or both (the window then overrides). */
export const contextQuerySchema = z
  .object({
    model: z.string().trim().min(1, "must not be empty").max(200).optional(),
    contextWindow: decimalInteger(1_000, MAX_WINDOW).optional(),
    mode: z.enum(["exact", "pal"], { error: 'must be "exact" or "pal"' }).default("exact"),
    reserve: decimalInteger(1).optional(),
    tokenizer: z.string().trim().min(1).max(100).optional(),
    /** Include every turn's tokens (perTurn): what the budget page draws. */
    perTurn: queryFlag(),
  })
  .superRefine((query, ctx) => {
    if (!query.model && !query.contextWindow) {
      ctx.addIssue({ code: "custom", path: ["model"], message: "give a model or a contextWindow" });
    }
  });
export type ContextQuery = z.output<typeof contextQuerySchema>;
