import "server-only";
import { buildContextPreview } from "@/lib/context/build-context";
import { listCustomModels } from "@/lib/db/settings/custom-models";
import { appendTurn, getThread } from "@/lib/db/threads/threads";
import { getTurn, removeLastTurn } from "@/lib/db/threads/turns";
import { isUnanswered } from "@/lib/domain/threads/chat";
import { AppError } from "@/lib/domain/errors";
import { calculateTokenAllocation } from "@/lib/domain/history";
import { formatModelSpec } from "@/lib/domain/compaction/model-spec";
import type { Turn } from "@/lib/domain/types";
import { serverSettings } from "@/lib/env";
import { LlmCallError, resolveModel, type ResolvedModel } from "@/lib/llm/provider";
import { findModel } from "@/lib/models/catalog";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import type { ChatMessageRequest } from "@/lib/validation/messages";
import { ASSUMED_CONTEXT_WINDOW, CHAT_TOOL_NAME, type ChatBudget } from "../domain/threads/chat-reply";

// Before a reply streams: the checks that refuse a message without writing anything, then the
// user's turn and the budgeted history the model will be sent.

/** Checks what can be checked before anything is stored, so a refused message writes nothing. */
async function prepare(threadId: string, request: ChatMessageRequest) {
  const thread = await getThread(threadId);
  let resolved: ResolvedModel;
  try {
    resolved = await resolveModel({
      model: request.model,
      fallback: (config) => config.chatModel,
      noModel: "model: no chat model chosen: pick one, or set the default chat model in Settings (or THREADLINE_CHAT_MODEL).",
    });
  } catch (error) {
    if (error instanceof LlmCallError) throw new AppError("validation_failed", error.message, [{ field: "model", message: error.message }]);
    throw error;
  }

  let retried: Turn | null = null;
  if (request.retry) {
    retried = thread.turnCount > 0 ? await getTurn(threadId, thread.turnCount - 1) : null;
    if (!retried || !isUnanswered(retried)) {
      throw new AppError("conflict", `Nothing to retry: the last turn of thread ${threadId} is not a message marked unanswered.`);
    }
  }

  const { maxTurns } = serverSettings();
  const needed = request.retry ? 1 : 2;
  if (thread.turnCount + needed > maxTurns.value) {
    throw new AppError(
      "turn_limit",
      `Thread ${threadId} has ${thread.turnCount} of its ${maxTurns.value} turns (MAX_CONVERSATION_TURNS): ${request.retry ? "a reply needs 1 more" : "a message and its reply need 2 more"}. Fork or compact it, or start a new thread with parentThreadId set to continue.`,
    );
  }

  const catalog = findModel(resolved.spec.model, await listCustomModels());
  const contextWindow = request.contextWindow ?? catalog?.contextWindow ?? ASSUMED_CONTEXT_WINDOW;
  const content = request.content ?? retried!.content;
  const budget = calculateTokenAllocation(contextWindow).content;
  const { tokens } = (await countTexts(catalog?.tokenizer ?? DEFAULT_TOKENIZER_ID, [content]))[0]!;
  if (tokens > budget)
    throw tooLong(
      `the message is ${tokens} tokens; ${formatModelSpec(resolved.spec)} leaves ${budget} for the history (a ${contextWindow}-token window)`,
    );
  return { thread, resolved, catalog, contextWindow, assumed: !request.contextWindow && !catalog, retried };
}

function tooLong(why: string): AppError {
  return new AppError("validation_failed", `content: ${why}.`, [{ field: "content", message: "too long for the model's context window" }]);
}

/** A reply ready to stream: its model, the user's turn it answers, and the history to send. */
export type OpenedReply = {
  resolved: ResolvedModel;
  model: string;
  userTurn: Turn;
  /** The history, exactly as the budget page shows it for this model. */
  historyText: string;
  budget: ChatBudget;
};

/**
 * Stores the message (or takes the unanswered turn to retry) and builds the history. A message
 * whose history cannot be built, or does not fit, is taken back: refusals write nothing.
 */
export async function openReply(threadId: string, request: ChatMessageRequest): Promise<OpenedReply> {
  const { thread, resolved, catalog, contextWindow, assumed, retried } = await prepare(threadId, request);
  const model = formatModelSpec(resolved.spec);
  const userTurn = retried ?? (await appendTurn(threadId, { role: "user", content: request.content!, toolName: CHAT_TOOL_NAME }));
  const takeBack = async () => {
    if (!retried) await removeLastTurn(threadId, userTurn.id, thread.title === null ? { restore: null } : null);
  };
  let preview;
  try {
    preview = await buildContextPreview(threadId, {
      mode: "exact",
      model: catalog?.id,
      contextWindow: catalog && !request.contextWindow ? undefined : contextWindow,
    });
  } catch (error) {
    await takeBack();
    throw error;
  }
  // The user's turn is the chain's last: collected first, so it fits when any turn does.
  if (preview.turns.includedCount === 0) {
    await takeBack();
    throw tooLong(
      `with the turn headers and the thread's files it does not fit in the ${preview.allocation.content}-token history budget of ${model} (a ${contextWindow}-token window)`,
    );
  }
  const budget: ChatBudget = {
    catalogModel: catalog?.id ?? null,
    contextWindow,
    assumed,
    tokenizer: preview.tokenizer.id,
    historyTokens: preview.totalTokens,
    turnsIncluded: preview.turns.includedCount,
    turnsTotal: preview.turns.total,
  };
  return { resolved, model, userTurn, historyText: preview.text, budget };
}
