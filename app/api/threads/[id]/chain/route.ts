import { maskedJson } from "@/lib/http/masking";
import { getChain } from "@/lib/db/threads/threads";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string }> };

export async function GET(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const chain = await getChain(threadIdFrom((await params).id));
    return maskedJson({ threads: chain.map(({ thread, turns }) => ({ ...thread, turns })) });
  });
}
