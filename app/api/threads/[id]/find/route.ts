import { maskedJson } from "@/lib/http/masking";
import { findInThread } from "@/lib/db/threads/turn-outline";
import { handleRoute, readQuery, threadIdFrom } from "@/lib/http/responses";
import { findInThreadQuerySchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

/**
 * The turns of the thread that match `?q=` in the full-text index (every word, as a word prefix):
 * `{terms, indexes, capped}`, 0-based indexes in order, at most `limit` (1,000); `capped` when
 * there are more.
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = readQuery(request, findInThreadQuerySchema);
    return maskedJson(await findInThread(id, query.q, { limit: query.limit, includeExpired: query.includeExpired }));
  });
}
