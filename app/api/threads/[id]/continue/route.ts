import { redactDeep } from "@/lib/domain/secrets/detect";
import { continueThread } from "@/lib/context/continue-thread";
import { idempotentWrite } from "@/lib/http/idempotency";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { continueRequestSchema } from "@/lib/validation/continue";

type Context = { params: Promise<{ id: string }> };

/** Stores an agent's prompt and answers the history to send with it: 201 {turn, model, history, historyTokens, remainingTokens}. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const body = await readJson(request, continueRequestSchema);
    return idempotentWrite(request, id, "continue", body, async () =>
      Response.json(redactDeep(await continueThread(id, body)), { status: 201 }),
    );
  });
}
