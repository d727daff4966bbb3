import "server-only";
import { randomUUID } from "node:crypto";
import { streamText, type LanguageModelUsage } from "ai";
import { buildContextPreview } from "@/lib/context/build-context";
import { listCustomModels } from "@/lib/db/custom-models";
import { appendTurn, getThread } from "@/lib/db/threads";
import { claimReplyLease, releaseReplyLease, renewReplyLease, requestReplyStop } from "@/lib/db/reply-leases";
import { getTurn, removeLastTurn, setTurnMetadata } from "@/lib/db/turns";
import { AppError, type AppErrorCode } from "@/lib/domain/errors";
import { calculateTokenAllocation } from "@/lib/domain/history";
import { INCOMPLETE_KEY, isUnanswered, UNANSWERED_KEY, withoutUnansweredMark } from "@/lib/domain/chat";
import type { JsonObject, Turn } from "@/lib/domain/types";
import { serverSettings } from "@/lib/env";
import { formatModelSpec, PROVIDER_LABELS } from "@/lib/domain/model-spec";
import { LlmCallError, resolveModel, startCall, type LlmErrorKind, type ResolvedModel } from "@/lib/llm/provider";
import { findModel } from "@/lib/models/catalog";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import type { ChatMessageRequest } from "@/lib/validation/messages";
import type { ChatBudget } from "./types";

export type { ChatBudget };

/**
 * Resuming a thread with a chat model: the user's message is stored as a turn, the thread's
 * budgeted history for the model (exactly what the budget page shows for it) is sent as one user
 * message, and the streamed reply is stored as the next turn with its provider, model and usage.
 * A provider that fails leaves the user's turn marked unanswered, to be retried.
 */

/** The tool name chat turns carry, beside the tools imports and agents record. */
export const CHAT_TOOL_NAME = "chat";
/** How long the provider may stay silent: before its first chunk, and between chunks. */
export const CHAT_IDLE_TIMEOUT_MS = 120_000;
/** The window assumed for a model neither the catalog nor Settings' custom models know. */
export const ASSUMED_CONTEXT_WINDOW = 32_768;

/** What a failed reply answers: why, with what was kept. */
export type ChatFailure = {
  /** provider_failed (424) when the model's provider failed; else what the store answered (turn_limit, expired...). */
  code: AppErrorCode;
  message: string;
  kind: LlmErrorKind | "storage";
  /** The provider's HTTP status, when it answered with one. */
  providerStatus: number | null;
  /** The user's turn, marked unanswered unless part of a reply was kept. */
  userTurn: Turn;
  /** The part of the reply that arrived before the failure, stored marked incomplete; or null. */
  partialTurn: Turn | null;
};

export type ChatEvent = { type: "delta"; text: string } | { type: "done"; turn: Turn; userTurn: Turn } | { type: "failed"; failure: ChatFailure };

type ChatStart = { userTurn: Turn; model: string; budget: ChatBudget };

export type ChatReply =
  /** Failed before any of the reply arrived. */
  | (ChatStart & { status: "failed"; failure: ChatFailure })
  /** Arriving: the events end with "done" or "failed" once the reply is stored. */
  | (ChatStart & { status: "streaming"; events: AsyncIterable<ChatEvent>; stop(): void });

export type ChatOptions = { signal?: AbortSignal; timeoutMs?: number };

/**
 * The replies being written in this process, by thread. One at a time per thread, so a reply
 * always answers the message it was asked for and the turn limit cannot be raced: this map settles
 * it at once within the process, and a lease in the database (lib/db/reply-leases.ts) across
 * every process sharing it.
 */
const globalForChat = globalThis as unknown as { threadlineReplies?: Map<string, { stop(): void }> };
const inProgress = (globalForChat.threadlineReplies ??= new Map());

/** How often a reply renews its lease, and so how soon it sees a stop sent to another process. */
export const REPLY_HEARTBEAT_MS = 2_000;

/**
 * Stops the reply being written in a thread (what arrived is kept): at once when it is written
 * here, at its next heartbeat when another process writes it. False when there is none.
 */
export async function stopChatReply(threadId: string): Promise<boolean> {
  const reply = inProgress.get(threadId);
  if (reply) {
    reply.stop();
    return true;
  }
  return requestReplyStop(threadId);
}

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
  if (tokens > budget) throw tooLong(`the message is ${tokens} tokens; ${formatModelSpec(resolved.spec)} leaves ${budget} for the history (a ${contextWindow}-token window)`);
  return { thread, resolved, catalog, contextWindow, assumed: !request.contextWindow && !catalog, retried };
}

function tooLong(why: string): AppError {
  return new AppError("validation_failed", `content: ${why}.`, [{ field: "content", message: "too long for the model's context window" }]);
}

/**
 * Stores the message (or takes the unanswered turn to retry), builds the history and starts the
 * reply. Resolves once the first text has arrived, or the call has failed: only then does the
 * caller know whether to answer with a stream or an error.
 */
export async function startChatReply(threadId: string, request: ChatMessageRequest, options: ChatOptions = {}): Promise<ChatReply> {
  // Claimed before the first await: two messages to one thread cannot both get past here.
  if (inProgress.has(threadId)) {
    throw new AppError("conflict", `A reply is already being written in thread ${threadId}: wait for it, or stop it (DELETE /api/threads/${threadId}/messages).`);
  }
  const stopper = new AbortController();
  const slot = { stop: () => stopper.abort() };
  inProgress.set(threadId, slot);
  const owner = randomUUID();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Frees the thread (awaited before the reply's last event, so a next message is never refused). Never throws. */
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    if (inProgress.get(threadId) === slot) inProgress.delete(threadId);
    await releaseReplyLease(threadId, owner).catch((error: unknown) => console.error("[threadline] could not release a chat reply lease", error));
  };
  try {
    if (!(await claimReplyLease(threadId, owner))) {
      throw new AppError("conflict", `A reply is already being written in thread ${threadId} (by another Threadline process): wait for it, or stop it (DELETE /api/threads/${threadId}/messages).`);
    }
    heartbeat = setInterval(() => {
      renewReplyLease(threadId, owner)
        .then(({ held, stopRequested }) => {
          if (!held || stopRequested) stopper.abort();
        })
        .catch((error: unknown) => console.error("[threadline] could not renew a chat reply lease", error));
    }, REPLY_HEARTBEAT_MS);
    heartbeat.unref?.();
    return await begin(threadId, request, options, stopper, release);
  } catch (error) {
    await release();
    throw error;
  }
}

async function begin(threadId: string, request: ChatMessageRequest, options: ChatOptions, stopper: AbortController, release: () => Promise<void>): Promise<ChatReply> {
  const { thread, resolved, catalog, contextWindow, assumed, retried } = await prepare(threadId, request);
  const model = formatModelSpec(resolved.spec);

  let userTurn =
    retried ??
    (await appendTurn(threadId, {
      role: "user",
      content: request.content!,
      toolName: CHAT_TOOL_NAME,
    }));
  // A message whose history cannot be built, or does not fit, is taken back: refusals write nothing.
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
  if (!preview.perTurn.find((turn) => turn.turnId === userTurn.id)?.included) {
    await takeBack();
    throw tooLong(`with the turn headers and the thread's files it does not fit in the ${preview.allocation.content}-token history budget of ${model} (a ${contextWindow}-token window)`);
  }
  const budget: ChatBudget = {
    catalogModel: catalog?.id ?? null,
    contextWindow,
    assumed,
    tokenizer: preview.tokenizer.id,
    historyTokens: preview.totalTokens,
    turnsIncluded: preview.turns.included.length,
    turnsTotal: preview.perTurn.length,
  };

  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  const call = startCall(resolved, { activity: "The reply", signal, timeoutMs: options.timeoutMs ?? CHAT_IDLE_TIMEOUT_MS });
  const label = PROVIDER_LABELS[resolved.spec.provider];
  // OpenAI's protocol says how a reply ended in finish_reason: a stream that ends without one was cut off.
  const finishReasonReported = resolved.spec.provider === "openai" || resolved.spec.provider === "openai-compatible";
  const events = eventQueue<ChatEvent>();
  let firstText = false;
  let arrived: () => void = () => {};
  const firstArrival = new Promise<void>((resolve) => (arrived = resolve));

  /** Keeps what can be kept of a failed reply and says why it failed. Never throws. */
  const fail = async (error: LlmCallError | AppError, text: string): Promise<ChatFailure> => {
    const provider = error instanceof LlmCallError;
    const code: AppErrorCode = provider ? "provider_failed" : error.code;
    const kind = provider ? error.kind : "storage";
    // A turn keeps Threadline's words only: the provider's text (which can echo anything) goes to the user who asked, never into the thread.
    const reason = provider ? error.brief : error.message;
    let partialTurn: Turn | null = null;
    try {
      if (text.trim() && provider) {
        partialTurn = await storeReply(threadId, resolved, text, { [INCOMPLETE_KEY]: { reason, kind } });
        if (isUnanswered(userTurn)) userTurn = await setTurnMetadata(threadId, userTurn.index, withoutUnansweredMark(userTurn.modelMetadata));
      } else {
        userTurn = await setTurnMetadata(threadId, userTurn.index, {
          ...withoutUnansweredMark(userTurn.modelMetadata),
          [UNANSWERED_KEY]: { reason, kind, model, at: new Date().toISOString() },
        });
      }
    } catch (storing) {
      // The thread went (purged, expired) while the reply streamed: nothing left to mark.
      console.error("[threadline] could not record a failed chat reply", storing instanceof Error ? storing.message : storing);
    }
    return { code, message: error.message, kind, providerStatus: provider ? error.status : null, userTurn, partialTurn };
  };

  /** Streams the reply into `events` and stores it; answers the last event, sent once the thread is released. */
  const pump = async (): Promise<ChatEvent> => {
    let text = "";
    const started = performance.now();
    let finishReason: string = "unknown";
    let sawFinishReason = false;
    let usage: LanguageModelUsage | null = null;
    try {
      const result = streamText({
        model: resolved.model,
        messages: [{ role: "user", content: preview.text }],
        maxRetries: 0,
        abortSignal: call.abortSignal,
        includeRawChunks: finishReasonReported,
        // Errors arrive as stream parts and are classified below; the SDK's default logs them.
        onError: () => {},
      });
      for await (const part of result.fullStream) {
        call.touch();
        if (part.type === "text-delta" && part.text) {
          text += part.text;
          events.push({ type: "delta", text: part.text });
          if (!firstText && text.trim()) {
            firstText = true;
            arrived();
          }
        } else if (part.type === "raw") {
          const choice = (part.rawValue as { choices?: { finish_reason?: unknown }[] } | null)?.choices?.[0];
          if (choice?.finish_reason != null) sawFinishReason = true;
        } else if (part.type === "error") {
          throw part.error;
        } else if (part.type === "abort") {
          throw new Error("aborted");
        } else if (part.type === "finish") {
          finishReason = part.finishReason;
          usage = part.totalUsage;
        }
      }
      if (!text.trim()) throw new LlmCallError("empty", `${label} returned an empty reply (finish reason: ${finishReason}).`);
      if (finishReasonReported && !sawFinishReason) throw new LlmCallError("network", `The connection to ${label} closed before the reply finished.`);
    } catch (error) {
      return { type: "failed", failure: await fail(call.failure(error), text) };
    } finally {
      call.close();
    }
    try {
      const turn = await storeReply(threadId, resolved, text, {
        usage: usageOf(usage),
        finishReason,
        durationMs: Math.round(performance.now() - started),
        context: { contextWindow, assumed, tokenizer: budget.tokenizer, historyTokens: budget.historyTokens, turnsIncluded: budget.turnsIncluded, turnsTotal: budget.turnsTotal },
      });
      if (isUnanswered(userTurn)) userTurn = await setTurnMetadata(threadId, userTurn.index, withoutUnansweredMark(userTurn.modelMetadata));
      return { type: "done", turn, userTurn };
    } catch (error) {
      // The thread expired, filled up or went while the reply streamed: the reply is lost, and says so.
      const reason = error instanceof AppError ? error : new AppError("conflict", "The reply could not be stored.");
      return { type: "failed", failure: await fail(reason, "") };
    }
  };

  const done = pump()
    .then(async (last) => {
      await release();
      events.push(last);
    })
    .catch((error: unknown) => console.error("[threadline] chat reply failed unexpectedly", error))
    .finally(async () => {
      await release(); // when the pump itself threw (once released, a no-op)
      events.end();
      arrived();
    });
  await Promise.race([firstArrival, done]);

  const start = { model, budget };
  if (!firstText) {
    await done;
    const outcome: ChatEvent[] = [];
    for await (const event of events) outcome.push(event);
    const failed = outcome.find((event) => event.type === "failed");
    if (failed) return { ...start, userTurn: failed.failure.userTurn, status: "failed", failure: failed.failure };
    return { ...start, userTurn, status: "streaming", events: replay(outcome), stop: () => stopper.abort() };
  }
  return { ...start, userTurn, status: "streaming", events, stop: () => stopper.abort() };
}

async function* replay<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function storeReply(threadId: string, resolved: ResolvedModel, text: string, metadata: JsonObject): Promise<Turn> {
  return appendTurn(threadId, {
    role: "assistant",
    content: text,
    toolName: CHAT_TOOL_NAME,
    modelProvider: resolved.spec.provider,
    modelName: resolved.spec.model,
    modelMetadata: metadata,
  });
}

/** The provider's reported usage under the names lib/domain/usage.ts reads; counts it did not report left out. */
function usageOf(usage: LanguageModelUsage | null): JsonObject {
  const out: JsonObject = {};
  if (usage?.inputTokens !== undefined) out.inputTokens = usage.inputTokens;
  if (usage?.outputTokens !== undefined) out.outputTokens = usage.outputTokens;
  if (usage?.reasoningTokens !== undefined) out.reasoningTokens = usage.reasoningTokens;
  if (usage?.cachedInputTokens !== undefined) out.cacheReadTokens = usage.cachedInputTokens;
  return out;
}

/** A single-consumer queue: the reply is pumped (and stored) whether or not anyone still reads it. */
function eventQueue<T>() {
  const items: T[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  return {
    push(item: T) {
      items.push(item);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      for (;;) {
        if (items.length > 0) {
          yield items.shift()!;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
