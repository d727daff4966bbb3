import { appendTurn } from "@/lib/db/threads";
import { idempotentWrite } from "@/lib/http/idempotency";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { appendTurnSchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

/** Appends a turn: 201 {turn}. With an Idempotency-Key, the turn and the key's record commit together. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const input = await readJson(request, appendTurnSchema);
    return idempotentWrite(request, id, "append_turn", input, async (claim) => {
      const turn = await appendTurn(id, input, {
        beforeCommit: claim ? (tx, stored) => claim.recordIn(tx, { status: 201, body: { turn: stored } }) : undefined,
      });
      return Response.json({ turn }, { status: 201 });
    });
  });
}
