import { maskedJson } from "@/lib/http/masking";
import { findInThread } from "@/lib/db/turn-outline";
import { parseOrThrow } from "@/lib/domain/parse";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";
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
    const query = parseOrThrow(findInThreadQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return maskedJson(await findInThread(id, query.q, { limit: query.limit, includeExpired: query.includeExpired }));
  });
}
