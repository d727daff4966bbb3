import { z } from "zod";
import { refuseProtoKeys } from "@/lib/domain/schemas";
import { wholeNumber } from "./numbers";
import { queryFlag } from "./query";

const MAX_WINDOW = 100_000_000;

/**
 * POST /api/threads/:id/messages: a user message to a chat model, or `retry` to answer the
 * thread's last user turn again (after a provider failure) without storing a new one.
 */
export const chatMessageSchema = refuseProtoKeys(
  z
    .strictObject({
      content: z
        .string()
        .refine((text) => text.trim() !== "", "must not be empty")
        .optional(),
      retry: z.literal(true, { error: "must be true when given" }).optional(),
      /** "<provider>:<model>"; default: the default chat model (Settings, then THREADLINE_CHAT_MODEL). */
      model: z.string().trim().max(300, "must be at most 300 characters").optional(),
      /** The window to budget the history for, when the catalog does not know the model (or to override it). */
      contextWindow: wholeNumber(1_000, MAX_WINDOW).optional(),
    })
    .superRefine((body, ctx) => {
      if (body.retry && body.content !== undefined)
        ctx.addIssue({ code: "custom", path: ["content"], message: "must be left out with retry" });
      if (!body.retry && body.content === undefined)
        ctx.addIssue({ code: "custom", path: ["content"], message: "is required (or retry: true)" });
    }),
);
export type ChatMessageRequest = z.output<typeof chatMessageSchema>;

/** POST /api/threads/:id/messages's query: `?stream=0` answers the whole reply as JSON. */
export const chatMessageQuerySchema = z.object({ stream: queryFlag(true) });
