import { getTurn } from "@/lib/db/turns";
import { AppError } from "@/lib/domain/errors";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string; index: string }> };

/** One turn, `{turn}`: the UI loads a long turn's full content this way, not with the whole thread. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const { id: rawId, index: rawIndex } = await params;
    const id = threadIdFrom(rawId);
    const index = /^\d{1,9}$/.test(rawIndex) ? Number(rawIndex) : NaN;
    if (Number.isNaN(index)) {
      throw new AppError("not_found", `Turn ${JSON.stringify(rawIndex.slice(0, 20))} not found: turn indexes are whole numbers from 0`);
    }
    // As for export: expired threads are not found unless asked for (the UI shows them).
    const includeExpired = ["1", "true"].includes(new URL(request.url).searchParams.get("includeExpired") ?? "");
    return Response.json({ turn: await getTurn(id, index, { includeExpired }) });
  });
}
