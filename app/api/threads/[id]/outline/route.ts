import { maskDeep } from "@/lib/domain/secrets/detect";
import { getThreadOutline } from "@/lib/db/threads/turn-outline";
import { handleRoute, readQuery, threadIdFrom } from "@/lib/http/responses";
import { includeExpiredQuerySchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

/**
 * The thread's outline, no content: `{turnCount, kinds}`, each kind (user, assistant, system, tool,
 * toolCall, error, compaction, subagent) the 0-based indexes of its turns as runs
 * `[start, step, count, ...]` (lib/domain/threads/turn-outline.ts). The thread page jumps with it.
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = readQuery(request, includeExpiredQuerySchema);
    return Response.json(maskDeep(await getThreadOutline(id, { includeExpired: query.includeExpired })));
  });
}
