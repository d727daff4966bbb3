import { threadSendsSecrets } from "@/lib/db/secrets/secret-findings";
import "server-only";
import { randomUUID } from "node:crypto";
import { claimReplyLease, releaseReplyLease, renewReplyLease, requestReplyStop } from "@/lib/db/engine/reply-leases";
import { AppError } from "@/lib/domain/errors";
import { PROVIDER_LABELS } from "@/lib/domain/compaction/model-spec";
import { startCall } from "@/lib/llm/provider";
import type { ChatMessageRequest } from "@/lib/validation/messages";
import { eventChannel, replay } from "./events";
import { openReply } from "./prepare";
import { pumpReply, type ReplyRun } from "./pump";
import { CHAT_IDLE_TIMEOUT_MS, type ChatEvent, type ChatOptions, type ChatReply } from "../domain/threads/chat-reply";

/**
 * Resuming a thread with a chat model: the user's message is stored as a turn, the thread's
 * budgeted history for the model (exactly what the budget page shows for it) is sent as one user
 * message, and the streamed reply is stored as the next turn with its provider, model and usage.
 * A provider that fails leaves the user's turn marked unanswered, to be retried.
 *
 * This file holds the thread while a reply is written (one at a time, leased across processes);
 * prepare.ts checks and opens the reply, pump.ts streams and stores it, events.ts carries its events.
 */

/**
 * The replies being written in this process, by thread. One at a time per thread, so a reply
 * always answers the message it was asked for and the turn limit cannot be raced: this map settles
 * it at once within the process, and a lease in the database (lib/db/engine/reply-leases.ts) across
 * every process sharing it.
 */
const globalForChat = globalThis as unknown as { threadlineReplies?: Map<string, { stop(): void }> };
const inProgress = (globalForChat.threadlineReplies ??= new Map());

/** How often a reply renews its lease, and so how soon it sees a stop sent to another process. */
const REPLY_HEARTBEAT_MS = 2_000;

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

/**
 * Stores the message (or takes the unanswered turn to retry), builds the history and starts the
 * reply. Resolves once the first text has arrived, or the call has failed: only then does the
 * caller know whether to answer with a stream or an error.
 */
export async function startChatReply(threadId: string, request: ChatMessageRequest, options: ChatOptions = {}): Promise<ChatReply> {
  // Claimed before the first await: two messages to one thread cannot both get past here.
  if (inProgress.has(threadId)) {
    throw new AppError(
      "conflict",
      `A reply is already being written in thread ${threadId}: wait for it, or stop it (DELETE /api/threads/${threadId}/messages).`,
    );
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
    await releaseReplyLease(threadId, owner).catch((error: unknown) =>
      console.error("[threadline] could not release a chat reply lease", error),
    );
  };
  try {
    if (!(await claimReplyLease(threadId, owner))) {
      throw new AppError(
        "conflict",
        `A reply is already being written in thread ${threadId} (by another Threadline process): wait for it, or stop it (DELETE /api/threads/${threadId}/messages).`,
      );
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

async function begin(
  threadId: string,
  request: ChatMessageRequest,
  options: ChatOptions,
  stopper: AbortController,
  release: () => Promise<void>,
): Promise<ChatReply> {
  const opened = await openReply(threadId, request);
  const { resolved } = opened;
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  let firstText = false;
  let arrived: () => void = () => {};
  const firstArrival = new Promise<void>((resolve) => (arrived = resolve));
  const sendSecrets = await threadSendsSecrets(threadId);
  const run: ReplyRun = {
    ...opened,
    threadId,
    sendSecrets,
    call: startCall(resolved, { activity: "The reply", signal, timeoutMs: options.timeoutMs ?? CHAT_IDLE_TIMEOUT_MS }),
    label: PROVIDER_LABELS[resolved.spec.provider],
    finishReasonReported: resolved.spec.provider === "openai" || resolved.spec.provider === "openai-compatible",
    events: eventChannel<ChatEvent>(),
    onFirstText: () => {
      firstText = true;
      arrived();
    },
  };

  const done = pumpReply(run)
    .then(async (last) => {
      await release();
      run.events.push(last);
    })
    .catch((error: unknown) => console.error("[threadline] chat reply failed unexpectedly", error))
    .finally(async () => {
      await release(); // when the pump itself threw (once released, a no-op)
      run.events.end();
      arrived();
    });
  await Promise.race([firstArrival, done]);

  const start = { model: opened.model, budget: opened.budget };
  if (!firstText) {
    await done;
    const outcome: ChatEvent[] = [];
    for await (const event of run.events) outcome.push(event);
    const failed = outcome.find((event) => event.type === "failed");
    if (failed) return { ...start, userTurn: failed.failure.userTurn, status: "failed", failure: failed.failure };
    return { ...start, userTurn: run.userTurn, status: "streaming", events: replay(outcome), stop: () => stopper.abort() };
  }
  return { ...start, userTurn: run.userTurn, status: "streaming", events: run.events, stop: () => stopper.abort() };
}
