import { maskedJson } from "@/lib/http/masking";
import { getTurn, getTurnById } from "@/lib/db/threads/turns";
import { normalizeId } from "@/lib/domain/ids";
import { parseOrThrow } from "@/lib/domain/parse";
import { handleRoute, readQuery, threadIdFrom } from "@/lib/http/responses";
import { includeExpiredQuerySchema, turnIndexSchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string; index: string }> };

/**
 * One turn, `{turn}`, by its 0-based index or by its id: the UI loads a long turn's full content
 * this way, not with the whole thread, and finds where a link to a turn (by id) points. Anything
 * but a turn id is read as the index, in decimal digits (400 naming `index` otherwise).
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const { id: rawId, index: rawIndex } = await params;
    const id = threadIdFrom(rawId);
    // As for export: expired threads are not found unless asked for (the UI shows them).
    const { includeExpired } = readQuery(request, includeExpiredQuerySchema);
    const turnId = normalizeId(rawIndex);
    if (turnId) return maskedJson({ turn: await getTurnById(id, turnId, { includeExpired }) });
    const { index } = parseOrThrow(turnIndexSchema, { index: rawIndex });
    return maskedJson({ turn: await getTurn(id, index, { includeExpired }) });
  });
}
