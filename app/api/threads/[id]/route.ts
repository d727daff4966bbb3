import { maskedJson } from "@/lib/http/masking";
import { withThreadFigures } from "@/lib/db/usage/session-figures";
import { withSessionUsage } from "@/lib/db/usage/session-usage";
import { purgeThread } from "@/lib/db/threads/threads";
import { getThreadHead } from "@/lib/db/threads/turn-pages";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string }> };

export async function GET(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () =>
    maskedJson(await withThreadFigures(await withSessionUsage(await getThreadHead(threadIdFrom((await params).id))))),
  );
}

/** Purges a thread, expired or not: the only way anything is deleted. */
export async function DELETE(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    await purgeThread(threadIdFrom((await params).id));
    return new Response(null, { status: 204 });
  });
}
