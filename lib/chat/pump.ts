import "server-only";
import { streamText, type LanguageModelUsage } from "ai";
import { redactSecrets } from "@/lib/domain/secrets/detect";
import { appendTurn } from "@/lib/db/threads/threads";
import { setTurnMetadata } from "@/lib/db/threads/turns";
import { INCOMPLETE_KEY, isUnanswered, UNANSWERED_KEY, withoutUnansweredMark } from "@/lib/domain/threads/chat";
import { AppError, type AppErrorCode } from "@/lib/domain/errors";
import type { JsonObject, Turn } from "@/lib/domain/types";
import { LlmCallError, type LlmCall, type ResolvedModel } from "@/lib/llm/provider";
import type { EventChannel } from "./events";
import type { OpenedReply } from "./prepare";
import { CHAT_TOOL_NAME, type ChatEvent, type ChatFailure } from "../domain/threads/chat-reply";

// The stream pump: the provider's stream read part by part into the reply's events, then the
// reply stored as a turn; a failure keeps what can be kept and says why.

/** A reply being written: what was opened, the provider call, and where its events go. */
export type ReplyRun = OpenedReply & {
  threadId: string;
  call: LlmCall;
  label: string;
  /** OpenAI's protocol says how a reply ended in finish_reason: a stream that ends without one was cut off. */
  finishReasonReported: boolean;
  events: EventChannel<ChatEvent>;
  /** The thread's setting: send its secrets to the model as they are (off by default: they are redacted). */
  sendSecrets?: boolean;
  /** Called once, when the first text that is not blank arrives. */
  onFirstText: () => void;
};

/** Streams the reply into `run.events` and stores it; answers the last event (sent once the thread is released). */
export async function pumpReply(run: ReplyRun): Promise<ChatEvent> {
  const started = performance.now();
  const streamed = { text: "", finishReason: "unknown", sawFinishReason: false, usage: null as LanguageModelUsage | null };
  try {
    await readStream(run, streamed);
    if (!streamed.text.trim())
      throw new LlmCallError("empty", `${run.label} returned an empty reply (finish reason: ${streamed.finishReason}).`);
    if (run.finishReasonReported && !streamed.sawFinishReason)
      throw new LlmCallError("network", `The connection to ${run.label} closed before the reply finished.`);
  } catch (error) {
    return { type: "failed", failure: await failReply(run, run.call.failure(error), streamed.text) };
  } finally {
    run.call.close();
  }
  try {
    const { budget } = run;
    const turn = await storeReply(run, streamed.text, {
      usage: usageOf(streamed.usage),
      finishReason: streamed.finishReason,
      durationMs: Math.round(performance.now() - started),
      context: {
        contextWindow: budget.contextWindow,
        assumed: budget.assumed,
        tokenizer: budget.tokenizer,
        historyTokens: budget.historyTokens,
        turnsIncluded: budget.turnsIncluded,
        turnsTotal: budget.turnsTotal,
      },
    });
    if (isUnanswered(run.userTurn))
      run.userTurn = await setTurnMetadata(run.threadId, run.userTurn.index, withoutUnansweredMark(run.userTurn.modelMetadata));
    return { type: "done", turn, userTurn: run.userTurn };
  } catch (error) {
    // The thread expired, filled up or went while the reply streamed: the reply is lost, and says so.
    const reason = error instanceof AppError ? error : new AppError("conflict", "The reply could not be stored.");
    return { type: "failed", failure: await failReply(run, reason, "") };
  }
}

type Streamed = { text: string; finishReason: string; sawFinishReason: boolean; usage: LanguageModelUsage | null };

async function readStream(run: ReplyRun, streamed: Streamed): Promise<void> {
  const result = streamText({
    model: run.resolved.model,
    // Nothing detected as a secret is sent to a model unless the thread says so (with a warning).
    messages: [{ role: "user", content: run.sendSecrets ? run.historyText : redactSecrets(run.historyText) }],
    maxRetries: 0,
    abortSignal: run.call.abortSignal,
    includeRawChunks: run.finishReasonReported,
    // Errors arrive as stream parts and are classified by the caller; the SDK's default logs them.
    onError: () => {},
  });
  let announced = false;
  for await (const part of result.fullStream) {
    run.call.touch();
    if (part.type === "text-delta" && part.text) {
      streamed.text += part.text;
      run.events.push({ type: "delta", text: part.text });
      if (!announced && streamed.text.trim()) {
        announced = true;
        run.onFirstText();
      }
    } else if (part.type === "raw") {
      const choice = (part.rawValue as { choices?: { finish_reason?: unknown }[] } | null)?.choices?.[0];
      if (choice?.finish_reason != null) streamed.sawFinishReason = true;
    } else if (part.type === "error") {
      throw part.error;
    } else if (part.type === "abort") {
      throw new Error("aborted");
    } else if (part.type === "finish") {
      streamed.finishReason = part.finishReason;
      streamed.usage = part.totalUsage;
    }
  }
}

/** Keeps what can be kept of a failed reply and says why it failed. Never throws. */
async function failReply(run: ReplyRun, error: LlmCallError | AppError, text: string): Promise<ChatFailure> {
  const provider = error instanceof LlmCallError;
  const code: AppErrorCode = provider ? "provider_failed" : error.code;
  const kind = provider ? error.kind : "storage";
  // A turn keeps Threadline's words only: the provider's text (which can echo anything) goes to the user who asked, never into the thread.
  const reason = provider ? error.brief : error.message;
  let partialTurn: Turn | null = null;
  try {
    if (text.trim() && provider) {
      partialTurn = await storeReply(run, text, { [INCOMPLETE_KEY]: { reason, kind } });
      if (isUnanswered(run.userTurn))
        run.userTurn = await setTurnMetadata(run.threadId, run.userTurn.index, withoutUnansweredMark(run.userTurn.modelMetadata));
    } else {
      run.userTurn = await setTurnMetadata(run.threadId, run.userTurn.index, {
        ...withoutUnansweredMark(run.userTurn.modelMetadata),
        [UNANSWERED_KEY]: { reason, kind, model: run.model, at: new Date().toISOString() },
      });
    }
  } catch (storing) {
    // The thread went (purged, expired) while the reply streamed: nothing left to mark.
    console.error("[threadline] could not record a failed chat reply", storing instanceof Error ? storing.message : storing);
  }
  return { code, message: error.message, kind, providerStatus: provider ? error.status : null, userTurn: run.userTurn, partialTurn };
}

async function storeReply(run: { threadId: string; resolved: ResolvedModel }, text: string, metadata: JsonObject): Promise<Turn> {
  return appendTurn(run.threadId, {
    role: "assistant",
    content: text,
    toolName: CHAT_TOOL_NAME,
    modelProvider: run.resolved.spec.provider,
    modelName: run.resolved.spec.model,
    modelMetadata: metadata,
  });
}

/** The provider's reported usage under the names lib/domain/usage/usage.ts reads; counts it did not report left out. */
function usageOf(usage: LanguageModelUsage | null): JsonObject {
  const out: JsonObject = {};
  if (usage?.inputTokens !== undefined) out.inputTokens = usage.inputTokens;
  if (usage?.outputTokens !== undefined) out.outputTokens = usage.outputTokens;
  if (usage?.reasoningTokens !== undefined) out.reasoningTokens = usage.reasoningTokens;
  if (usage?.cachedInputTokens !== undefined) out.cacheReadTokens = usage.cachedInputTokens;
  return out;
}
