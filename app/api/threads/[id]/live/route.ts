import { maskedJson } from "@/lib/http/masking";
import { threadLiveState } from "@/lib/db/threads/live-states";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string }> };

/**
 * 200 {id, turnCount, lastUpdatedAt}: what an open thread page polls to learn that the thread
 * grew (expired threads included: the page shows them). One cheap read; GET /api/events pushes
 * the same state when this process writes the thread.
 */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    return maskedJson(await threadLiveState(id), { headers: { "cache-control": "no-store" } });
  });
}
