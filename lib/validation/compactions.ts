import { z } from "zod";
import { COMPACTION_STRATEGIES, DEFAULT_TRIM_CHARS, SUMMARIZERS, type CompactionStrategy } from "@/lib/domain/compaction/types";
import { formatModelSpec, modelSpecSchema } from "@/lib/domain/compaction/model-spec";
import { refuseProtoKeys, uuidSchema } from "@/lib/domain/schemas";
import { decimalInteger } from "./numbers";

/** co-cli's defaults: a window of 40 messages; tool outputs over 2,000 characters trimmed. */
const DEFAULT_WINDOW_TURNS = 40;

// Counts are JSON numbers, or decimal digits in a string (which clients have sent).
const windowOptions = z.strictObject({
  trigger: z.enum(["turns", "tokens"], { error: 'must be "turns" or "tokens"' }).default("turns"),
  maxTurns: decimalInteger(0, 1_000_000).default(DEFAULT_WINDOW_TURNS),
  maxTokens: decimalInteger(0, 100_000_000).default(0),
});
const rangeOptions = z.strictObject({
  direction: z.enum(["up-to", "from"], { error: 'must be "up-to" or "from"' }),
  /** 0-based turn index, inclusive. */
  at: decimalInteger(0, 1_000_000),
});
const trimOptions = z.strictObject({ maxChars: decimalInteger(0, 10_000_000).default(DEFAULT_TRIM_CHARS) });

const OPTION_SCHEMAS: Record<CompactionStrategy, z.ZodType<Record<string, unknown>>> = {
  full: z.strictObject({}),
  window: windowOptions,
  range: rangeOptions,
  "trim-tool-output": trimOptions,
};

/**
 * POST /api/threads/:id/compactions. `options` depend on the strategy and are checked against
 * it. `summary` is an edited summary, used instead of the summariser's (a preview of it measures
 * it and checks its references); `jobId`, the finished LLM job applied, goes with apply only.
 */
export const compactionRequestSchema = refuseProtoKeys(
  z
    .strictObject({
      strategy: z.enum(COMPACTION_STRATEGIES as [CompactionStrategy, ...CompactionStrategy[]], {
        error: `must be one of ${COMPACTION_STRATEGIES.join(", ")}`,
      }),
      summarizer: z.enum(SUMMARIZERS, { error: `must be one of ${SUMMARIZERS.join(", ")}` }).default("extractive"),
      /** The LLM summariser, "<provider>:<model>"; the configured compaction model when absent. */
      model: modelSpecSchema.transform(formatModelSpec).optional(),
      /** The model the thread is meant for: its tokenizer measures before and after. */
      targetModel: z.string().trim().min(1, "must not be empty").max(200).optional(),
      instructions: z
        .string()
        .trim()
        .max(2_000, "must be at most 2000 characters")
        .optional()
        .transform((v) => v || undefined),
      options: z.record(z.string(), z.unknown()).default({}),
      apply: z.boolean({ error: "must be true or false" }).default(false),
      summary: z.string().max(200_000, "must be at most 200000 characters").optional(),
      jobId: uuidSchema.optional(),
    })
    .transform((request, ctx) => {
      const parsed = OPTION_SCHEMAS[request.strategy].safeParse(request.options);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: "custom", path: ["options", ...issue.path.map(String)], message: issue.message });
        return z.NEVER;
      }
      if (!request.apply && request.jobId !== undefined) {
        ctx.addIssue({ code: "custom", path: ["jobId"], message: "only goes with apply: true" });
        return z.NEVER;
      }
      return { ...request, options: parsed.data };
    }),
);
export type CompactionRequest = z.output<typeof compactionRequestSchema>;
