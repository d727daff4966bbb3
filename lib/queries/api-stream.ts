import { readServerSentEvents, type ServerSentEvent } from "@/lib/domain/server-sent-events";
import { apiErrorOf, apiResponse, ApiError, type ApiRequest } from "./api-client";

/**
 * Client-safe: an API answer that streams server-sent events (POST /api/threads/:id/messages). It
 * fails as apiFetch does: an answer that is not 2xx throws its ApiError before any event. Once
 * streaming, an `error` event carries the API's error shape ({error: {code, message, details?}}):
 * it ends the events by throwing that ApiError, so a caller reads every failure the same way.
 */
export async function apiStream(
  path: string,
  request: ApiRequest = {},
  /** The message of an error event that carries none. */
  eventFallback = "The stream failed.",
): Promise<AsyncGenerator<ServerSentEvent>> {
  const response = await apiResponse(path, request, "text/event-stream");
  if (!response.body) throw new ApiError(request.fallback ?? "The server answered without a stream.", response.status, "unknown");
  return eventsUntilError(readServerSentEvents(response.body), response.status, eventFallback);
}

async function* eventsUntilError(
  events: AsyncGenerator<ServerSentEvent>,
  status: number,
  fallback: string,
): AsyncGenerator<ServerSentEvent> {
  for await (const event of events) {
    if (event.event === "error") throw apiErrorOf(status, event.data, fallback);
    yield event;
  }
}
