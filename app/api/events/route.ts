import { readerFrom } from "@/lib/auth/reader";
import { mayRead } from "@/lib/domain/access";
import { handleRoute } from "@/lib/http/responses";
import { EVENT_STREAM_HEADERS, liveEventStream } from "@/lib/live/event-stream";
import { liveHub } from "@/lib/live/hub";
import { sourceSync } from "@/lib/sources/sync";

export const dynamic = "force-dynamic";

/**
 * Live events, as server-sent events, for as long as the client stays: `thread` ({id, turnCount,
 * lastUpdatedAt}) when a thread is written in this process, `sources` (the status GET
 * /api/sources answers) when the followed folders' status changes, that status first of all.
 * Only this process's writes: pages keep a slow poll for another instance's.
 */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const reader = await readerFrom(request.headers);
    const stream = liveEventStream({
      // A thread's event goes to those who may read it (a purged thread's, with no owner left, to everyone: it is gone).
      subscribe: (listener) =>
        liveHub().subscribe((event) => {
          if (event.type !== "thread" || !event.access || mayRead(reader, event.access)) listener(event);
        }),
      first: [{ type: "sources", status: sourceSync().status() }],
      signal: request.signal,
    });
    return new Response(stream, { headers: EVENT_STREAM_HEADERS });
  });
}
