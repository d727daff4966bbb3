"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import type { ServerSentEvent } from "@/lib/domain/server-sent-events";
import type { ChatBudget } from "@/lib/domain/threads/chat-reply";
import { ApiError } from "@/lib/queries/api-client";
import { requestChatStop, sendChatMessage } from "@/lib/queries/chat";

export type PendingReply = { user: string | null; reply: string; model: string | null; budget: ChatBudget | null };
export type ReplyPhase = "idle" | "sending" | "streaming";

/**
 * A message sent and its reply streamed in (POST /api/threads/:id/messages): what is pending on
 * screen, the phase, the error, and the sentence announced when the stored turns are shown.
 * `clearMessage` empties the box once the server has taken the message.
 */
export function useChatReply(threadId: string, clearMessage: () => void) {
  const router = useRouter();
  const [pending, setPending] = useState<PendingReply | null>(null);
  const [phase, setPhase] = useState<ReplyPhase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [refreshing, startTransition] = useTransition();
  const [announcement, setAnnouncement] = useState("");
  const abort = useRef<AbortController | null>(null);

  /** Shows the stored turns: the refresh and the end of the pending view land together. */
  function settle(said: string) {
    setAnnouncement(said);
    startTransition(() => {
      router.refresh();
      setPending(null);
      setPhase("idle");
    });
  }

  function giveUp() {
    setPending(null);
    setPhase("idle");
  }

  /**
   * Stop: the server stops the provider and stores what arrived, then ends the stream, which
   * settles the page. Before the server has taken the message there is nothing to stop there:
   * the request itself is abandoned.
   */
  async function stop() {
    await requestChatStop(threadId).catch(() => abort.current?.abort());
  }

  async function send(body: { content?: string; retry?: true }, model: string) {
    setError(null);
    setPending({ user: body.content ?? null, reply: "", model: null, budget: null });
    setPhase("sending");
    const controller = new AbortController();
    abort.current = controller;
    let events: AsyncGenerator<ServerSentEvent>;
    try {
      events = await sendChatMessage(threadId, { ...body, ...(model ? { model } : {}) }, controller.signal);
    } catch (failure) {
      if (failure instanceof ApiError) {
        setError(failure.message);
        // 424: the message was stored, marked unanswered: show it (with Retry), clear the box.
        if (failure.status !== 424) return giveUp();
        if (body.content) clearMessage();
        settle("The message was kept, unanswered.");
        return;
      }
      if (!controller.signal.aborted) throw failure;
      // Abandoned: the server may have stored the message (marked unanswered): show what it has.
      if (body.content) clearMessage();
      settle("Stopped.");
      return;
    }
    if (body.content) clearMessage();
    settle(await readReply(events, controller));
  }

  /** Shows the reply as it arrives; answers the sentence that says how it ended. */
  async function readReply(events: AsyncGenerator<ServerSentEvent>, controller: AbortController): Promise<string> {
    try {
      for await (const { event, data } of events) {
        const fields = data as Record<string, unknown>;
        if (event === "start") {
          setPhase("streaming");
          setPending(
            (p) =>
              p && {
                ...p,
                model: fields.model as string,
                budget: fields.budget as ChatBudget,
                user: p.user ?? (fields.userTurn as { content?: string })?.content ?? null,
              },
          );
        } else if (event === "delta") {
          setPending((p) => p && { ...p, reply: p.reply + (fields.text as string) });
        }
      }
    } catch (failure) {
      if (failure instanceof ApiError) {
        setError(failure.message);
        return failure.message;
      }
      if (failure instanceof SyntaxError) setError(`The server sent an unreadable event (${failure.message}); what arrived was kept.`);
      else if (!controller.signal.aborted) setError("The connection to the Threadline server was lost; what arrived was kept.");
    }
    return "The reply was stored.";
  }

  return { pending, phase, error, busy: phase !== "idle" || refreshing, announcement, send, stop };
}
