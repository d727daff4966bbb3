import "server-only";
import { appendTurn, getThread } from "@/lib/db/threads/threads";
import { listCustomModels } from "@/lib/db/settings/custom-models";
import { AppError } from "@/lib/domain/errors";
import type { Turn } from "@/lib/domain/types";
import { findModel, previewModelFor } from "@/lib/models/catalog";
import type { ContinueRequest } from "@/lib/validation/continue";
import { buildContextPreview } from "./build-context";
import { quoteInput } from "@/lib/domain/secrets/quote";

export type Continuation = {
  turn: Turn;
  model: string;
  /** The conversation history as PAL's build_conversation_history writes it, for the model. */
  history: string;
  historyTokens: number;
  /** What the model's content budget has left for the new request beside this history. */
  remainingTokens: number;
};

/**
 * An agent continues a thread (PAL's reconstruct_thread_context, made durable): the prompt is
 * stored as a user turn, then the chain's history is built for the model's window. An unknown or
 * expired thread answers 404, naming the timeout in effect; a full one 409.
 */
export async function continueThread(threadId: string, request: ContinueRequest): Promise<Continuation> {
  const thread = await getThread(threadId);
  const custom = await listCustomModels();
  const model = request.model ?? previewModelFor(thread.modelsUsed, custom);
  // Checked before the turn is stored: a refused request writes nothing.
  if (!findModel(model, custom))
    throw new AppError("validation_failed", `model: unknown model ${quoteInput(model)}`, [{ field: "model", message: "unknown model" }]);
  const turn = await appendTurn(threadId, {
    role: "user",
    content: request.prompt,
    files: request.files,
    toolName: request.toolName,
  });
  const preview = await buildContextPreview(threadId, { model, mode: "exact" });
  return {
    turn,
    model,
    history: preview.text,
    historyTokens: preview.totalTokens,
    remainingTokens: Math.max(0, preview.allocation.content - preview.totalTokens),
  };
}
