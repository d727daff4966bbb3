import { z } from "zod";
import { decimalInteger } from "./numbers";
import { queryFlag } from "./query";

/** A 1-based turn position. */
const position = decimalInteger(1).optional();

const KNOWN = new Set(["format", "chain", "from", "to", "model"]);

/**
 * GET /api/threads/:id/handoff's query (and the MCP tool get_handoff's arguments). Unknown
 * parameters are refused by name, so a typo is not silently ignored.
 */
export const handoffQuerySchema = z
  .looseObject({
    format: z
      .enum(["orchestrator"], { error: 'must be "orchestrator" (the orchestrator seed\'s conversation_history)' })
      .default("orchestrator"),
    /** The whole chain, oldest first, rather than the thread alone. */
    chain: queryFlag(),
    /** 1-based positions in the thread's (or the chain's) turns, both included. */
    from: position,
    to: position,
    /** A model whose tokenizer counts the text (adds `tokens`). */
    model: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
  })
  .superRefine((query, ctx) => {
    for (const key of Object.keys(query)) {
      if (!KNOWN.has(key))
        ctx.addIssue({ code: "custom", path: [key], message: `is not a parameter of handoffs (they are ${[...KNOWN].join(", ")})` });
    }
    if (query.from !== undefined && query.to !== undefined && query.to < query.from)
      ctx.addIssue({ code: "custom", path: ["to"], message: `must be at least from (${query.from})` });
  })
  .transform(({ format, chain, from, to, model }) => ({ format, chain, from, to, model }));
export type HandoffQuery = z.output<typeof handoffQuerySchema>;
