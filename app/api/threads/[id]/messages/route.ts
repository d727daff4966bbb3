import { startChatReply, stopChatReply } from "@/lib/chat/reply";
import type { ChatEvent, ChatFailure, ChatReply } from "@/lib/domain/threads/chat-reply";
import { formatEvent } from "@/lib/domain/server-sent-events";
import type { IdempotencyClaim, IdempotentResult } from "@/lib/db/threads/idempotency";
import { getThread } from "@/lib/db/threads/threads";
import { AppError } from "@/lib/domain/errors";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { idempotentWrite } from "@/lib/http/idempotency";
import { errorResponse, handleRoute, HTTP_STATUS, readJson, readQuery, threadIdFrom } from "@/lib/http/responses";
import { chatMessageQuerySchema, chatMessageSchema } from "@/lib/validation/messages";

type Context = { params: Promise<{ id: string }> };

/**
 * A message to a chat model: stores it, sends the thread's budgeted history, stores the reply.
 * Streams server-sent events (start, delta..., then done or error) unless ?stream=0, which
 * answers 201 {userTurn, turn, model, budget} once the reply is stored. A provider that fails
 * before replying answers 424 with the user's turn, kept and marked unanswered. One reply at a
 * time per thread: another message meanwhile answers 409.
 *
 * With an Idempotency-Key, the outcome is recorded as the JSON ?stream=0 answers (201, or the
 * failure's status and error): a retry gets that JSON, never a stream. A streamed reply records
 * its outcome when it ends, also when the reader went away (the reply stops; what arrived is kept).
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const { stream: streaming } = readQuery(request, chatMessageQuerySchema);
    const body = await readJson(request, chatMessageSchema);
    return idempotentWrite(request, id, "chat_message", body, async (claim) => {
      const reply = await startChatReply(id, body, { signal: request.signal });
      if (reply.status === "failed") return failedResponse(reply.failure);
      if (!streaming) return wholeResponse(reply);
      claim?.recordLater();
      return new Response(eventStream(reply, claim), {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache, no-transform",
          "x-accel-buffering": "no",
        },
      });
    });
  });
}

/**
 * Stops the reply being written in the thread (the page's Stop): 204, or 404 when there is none.
 * What arrived is kept. A reply written by another app process stops at its next heartbeat (2 s).
 * An unknown or expired thread answers as every thread route does.
 */
export async function DELETE(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    if (await stopChatReply(id)) return new Response(null, { status: 204 });
    // Looked up only now: a reply outliving its thread's expiry can still be stopped.
    await getThread(id);
    throw new AppError("not_found", `No reply is being written in thread ${id}.`);
  });
}

function failureBody(failure: ChatFailure) {
  return {
    code: failure.code,
    message: failure.message,
    details: { kind: failure.kind, providerStatus: failure.providerStatus, userTurn: failure.userTurn, partialTurn: failure.partialTurn },
  };
}

function failedResponse(failure: ChatFailure): Response {
  const { code, message, details } = failureBody(failure);
  return errorResponse(HTTP_STATUS[code], code, message, details);
}

type Streaming = Extract<ChatReply, { status: "streaming" }>;
const NO_OUTCOME = { code: "internal", message: "The reply ended without an outcome; see the server log." } as const;

/** The whole answer to a reply's last event (or to its absence), as ?stream=0 gives it. */
function outcomeOf(reply: Streaming, event: ChatEvent | null): IdempotentResult {
  if (event?.type === "done")
    return { status: 201, body: { userTurn: event.userTurn, turn: event.turn, model: reply.model, budget: reply.budget } };
  if (event?.type === "failed") return { status: HTTP_STATUS[event.failure.code], body: { error: failureBody(event.failure) } };
  return { status: 500, body: { error: NO_OUTCOME } };
}

/** The event that ends the reply (done or failed), reading past the deltas; null when it ends without one. */
async function lastEvent(iterator: AsyncIterator<ChatEvent>): Promise<ChatEvent | null> {
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if (next.value.type !== "delta") return next.value;
  }
  return null;
}

async function wholeResponse(reply: Streaming): Promise<Response> {
  const { status, body } = outcomeOf(reply, await lastEvent(reply.events[Symbol.asyncIterator]()));
  return Response.json(body, { status });
}

/**
 * One server-sent event, its data masked: handleRoute masks JSON answers, not streams. A delta is
 * masked on its own, so a secret split across two deltas shows until the page shows the stored
 * turn (masked whole) in place of the streamed text.
 */
function sse(event: string, data: unknown): Uint8Array {
  return new TextEncoder().encode(formatEvent(event, maskDeep(data)));
}

/** The reply as server-sent events; with a claim, its outcome is recorded under the Idempotency-Key. */
function eventStream(reply: Streaming, claim: IdempotencyClaim | null): ReadableStream<Uint8Array> {
  const iterator = reply.events[Symbol.asyncIterator]();
  let outcome = false;
  // Recorded before the last event is sent: a client that retries once it has read it gets the record.
  const record = async (event: ChatEvent | null) => claim?.record(outcomeOf(reply, event));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(sse("start", { userTurn: reply.userTurn, model: reply.model, budget: reply.budget }));
    },
    async pull(controller) {
      const next: IteratorResult<ChatEvent> = await iterator.next();
      if (next.done) {
        if (!outcome) {
          await record(null);
          controller.enqueue(sse("error", { error: NO_OUTCOME }));
        }
        controller.close();
        return;
      }
      const event = next.value;
      if (event.type === "delta") controller.enqueue(sse("delta", { text: event.text }));
      else if (event.type === "done") {
        outcome = true;
        await record(event);
        controller.enqueue(sse("done", { turn: event.turn, userTurn: event.userTurn }));
      } else {
        outcome = true;
        await record(event);
        controller.enqueue(sse("error", { error: failureBody(event.failure) }));
      }
    },
    // The reader went away (the page's Stop, a closed tab): stop the provider; what arrived is kept.
    cancel() {
      reply.stop();
      // Nobody reads the rest, but the outcome (the stopped reply, as stored) is still the key's answer.
      if (claim && !outcome) void lastEvent(iterator).then(record);
    },
  });
}
