import { continueThread } from "@/lib/context/continue-thread";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { continueRequestSchema } from "@/lib/validation/continue";

type Context = { params: Promise<{ id: string }> };

/** Stores an agent's prompt and answers the history to send with it: 201 {turn, model, history, historyTokens, remainingTokens}. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    return Response.json(await continueThread(id, await readJson(request, continueRequestSchema)), { status: 201 });
  });
}
