import { startChatReply, stopChatReply, type ChatEvent, type ChatFailure, type ChatReply } from "@/lib/chat/reply";
import { formatEvent } from "@/lib/chat/sse";
import { AppError } from "@/lib/domain/errors";
import { errorResponse, handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { chatMessageSchema } from "@/lib/validation/messages";

type Context = { params: Promise<{ id: string }> };

/**
 * A message to a chat model: stores it, sends the thread's budgeted history, stores the reply.
 * Streams server-sent events (start, delta..., then done or error) unless ?stream=0, which
 * answers 201 {userTurn, turn, model, budget} once the reply is stored. A provider that fails
 * before replying answers 424 with the user's turn, kept and marked unanswered. One reply at a
 * time per thread: another message meanwhile answers 409.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const streaming = streamParam(new URL(request.url).searchParams.get("stream"));
    const body = await readJson(request, chatMessageSchema);
    const reply = await startChatReply(id, body, { signal: request.signal });
    if (reply.status === "failed") return failedResponse(reply.failure);
    if (!streaming) return wholeResponse(reply);
    return new Response(eventStream(reply), {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
    });
  });
}

function streamParam(value: string | null): boolean {
  if (value === null || value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  throw new AppError("validation_failed", `stream: must be 0 or 1; got "${value.slice(0, 20)}"`, [{ field: "stream", message: "must be 0 or 1" }]);
}

/**
 * Stops the reply being written in the thread (the page's Stop): 204, or 404 when there is none.
 * What arrived is kept. A reply written by another app process stops at its next heartbeat (2 s).
 */
export async function DELETE(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    if (!(await stopChatReply(id))) throw new AppError("not_found", `No reply is being written in thread ${id}.`);
    return new Response(null, { status: 204 });
  });
}

function failureBody(failure: ChatFailure) {
  return { code: failure.code, message: failure.message, details: { kind: failure.kind, providerStatus: failure.providerStatus, userTurn: failure.userTurn, partialTurn: failure.partialTurn } };
}

function failedResponse(failure: ChatFailure): Response {
  const { code, message, details } = failureBody(failure);
  return errorResponse(failure.status, code, message, details);
}

async function wholeResponse(reply: Extract<ChatReply, { status: "streaming" }>): Promise<Response> {
  for await (const event of reply.events) {
    if (event.type === "done") return Response.json({ userTurn: event.userTurn, turn: event.turn, model: reply.model, budget: reply.budget }, { status: 201 });
    if (event.type === "failed") return failedResponse(event.failure);
  }
  return errorResponse(500, "internal", "The reply ended without an outcome; see the server log.");
}

function sse(event: string, data: unknown): Uint8Array {
  return new TextEncoder().encode(formatEvent(event, data));
}

function eventStream(reply: Extract<ChatReply, { status: "streaming" }>): ReadableStream<Uint8Array> {
  const iterator = reply.events[Symbol.asyncIterator]();
  let outcome = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(sse("start", { userTurn: reply.userTurn, model: reply.model, budget: reply.budget }));
    },
    async pull(controller) {
      const next: IteratorResult<ChatEvent> = await iterator.next();
      if (next.done) {
        if (!outcome) controller.enqueue(sse("error", { error: { code: "internal", message: "The reply ended without an outcome; see the server log." } }));
        controller.close();
        return;
      }
      const event = next.value;
      if (event.type === "delta") controller.enqueue(sse("delta", { text: event.text }));
      else if (event.type === "done") {
        outcome = true;
        controller.enqueue(sse("done", { turn: event.turn, userTurn: event.userTurn }));
      } else {
        outcome = true;
        controller.enqueue(sse("error", { error: failureBody(event.failure) }));
      }
    },
    // The reader went away (the page's Stop, a closed tab): stop the provider; what arrived is kept.
    cancel() {
      reply.stop();
    },
  });
}
