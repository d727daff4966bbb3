import { appendTurn } from "@/lib/db/threads";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { appendTurnSchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const turn = await appendTurn(id, await readJson(request, appendTurnSchema));
    return Response.json({ turn }, { status: 201 });
  });
}
