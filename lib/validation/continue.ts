import { z } from "zod";
import { pathListSchema, refuseProtoKeys, toolNameSchema } from "@/lib/domain/schemas";

/** POST /api/threads/:id/continue: an agent's next prompt in a thread (PAL's continuation_id). */
export const continueRequestSchema = refuseProtoKeys(
  z.strictObject({
    toolName: toolNameSchema,
    prompt: z.string().refine((text) => text.trim() !== "", "must not be empty"),
    files: pathListSchema.optional(),
    /** A catalog or custom model; its window budgets the history. Default: the thread's last model, else gpt-5. */
    model: z.string().trim().min(1, "must not be empty").max(200).optional(),
  }),
);
export type ContinueRequest = z.output<typeof continueRequestSchema>;
