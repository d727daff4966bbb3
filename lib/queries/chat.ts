import type { ServerSentEvent } from "@/lib/domain/server-sent-events";
import { apiFetch } from "./api-client";
import { apiStream } from "./api-stream";

/** Client-safe: the thread page's chat (POST and DELETE /api/threads/:id/messages). */
export type ChatMessageBody = { content?: string; retry?: true; model?: string };

/** Sends a message (or retries the last one): the reply's events (start, delta..., done), an error event thrown as its ApiError. */
export function sendChatMessage(threadId: string, body: ChatMessageBody, signal: AbortSignal): Promise<AsyncGenerator<ServerSentEvent>> {
  return apiStream(`/api/threads/${threadId}/messages`, { json: body, signal }, "The reply failed.");
}

/** Stops the reply being written in the thread; throws when there is none to stop (404) or the server cannot be reached. */
export async function requestChatStop(threadId: string): Promise<void> {
  await apiFetch(`/api/threads/${threadId}/messages`, { method: "DELETE" });
}
