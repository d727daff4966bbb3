import { maskedJson } from "@/lib/http/masking";
import { getTurn, getTurnById } from "@/lib/db/turns";
import { normalizeId } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string; index: string }> };

/**
 * One turn, `{turn}`, by its 0-based index or by its id: the UI loads a long turn's full content
 * this way, not with the whole thread, and finds where a link to a turn (by id) points.
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const { id: rawId, index: rawIndex } = await params;
    const id = threadIdFrom(rawId);
    // As for export: expired threads are not found unless asked for (the UI shows them).
    const includeExpired = ["1", "true"].includes(new URL(request.url).searchParams.get("includeExpired") ?? "");
    const turnId = normalizeId(rawIndex);
    if (turnId) return maskedJson({ turn: await getTurnById(id, turnId, { includeExpired }) });
    const index = /^\d{1,9}$/.test(rawIndex) ? Number(rawIndex) : NaN;
    if (Number.isNaN(index)) {
      throw new AppError("not_found", `Turn ${JSON.stringify(rawIndex.slice(0, 20))} not found: turns are named by index (a whole number from 0) or id`);
    }
    return maskedJson({ turn: await getTurn(id, index, { includeExpired }) });
  });
}
