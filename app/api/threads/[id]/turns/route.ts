import { maskedJson } from "@/lib/http/masking";
import { appendTurn } from "@/lib/db/threads/threads";
import { listTurns } from "@/lib/db/threads/turn-pages";
import { decodeTurnCursor } from "@/lib/domain/threads/cursor";
import { AppError } from "@/lib/domain/errors";
import { idempotentWrite } from "@/lib/http/idempotency";
import { handleRoute, readJson, readQuery, threadIdFrom } from "@/lib/http/responses";
import { appendTurnSchema, listTurnsQuerySchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

/**
 * A page of turns in index order: 200 {items, nextCursor}; `?from=<index>` starts at a turn,
 * `?cursor=` goes on; `?includeExpired=1` reads an expired thread (the thread page does).
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = readQuery(request, listTurnsQuerySchema);
    let start = query.from ?? 0;
    if (query.cursor !== undefined) {
      const decoded = decodeTurnCursor(query.cursor);
      if (decoded === null)
        throw new AppError("validation_failed", "cursor: not a cursor returned by this API", [
          { field: "cursor", message: "not a cursor returned by this API" },
        ]);
      start = decoded;
    }
    return maskedJson(await listTurns(id, start, query.limit, { includeExpired: query.includeExpired }));
  });
}

/** Appends a turn: 201 {turn}. With an Idempotency-Key, the turn and the key's record commit together. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const input = await readJson(request, appendTurnSchema);
    return idempotentWrite(request, id, "append_turn", input, async (claim) => {
      const turn = await appendTurn(id, input, {
        beforeCommit: claim ? (tx, stored) => claim.recordIn(tx, { status: 201, body: { turn: stored } }) : undefined,
      });
      return maskedJson({ turn }, { status: 201 });
    });
  });
}
