import { readerFrom } from "@/lib/auth/reader";
import { maskedJson } from "@/lib/http/masking";
import { forkLinks, forkThread } from "@/lib/db/threads/forks";
import { getThread } from "@/lib/db/threads/threads";
import { idempotentWrite } from "@/lib/http/idempotency";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { forkRequestSchema } from "@/lib/validation/forks";

type Context = { params: Promise<{ id: string }> };

/** Forks the thread at a turn: 201 {thread, fork}, a new thread with its turns 0..atTurn. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const body = await readJson(request, forkRequestSchema);
    const reader = await readerFrom(request.headers);
    return idempotentWrite(request, id, "fork", body, async () => maskedJson(await forkThread(id, body.atTurn, reader), { status: 201 }));
  });
}

/** The thread's forks, and the fork it is (if it is one). */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    await getThread(id, { includeExpired: true });
    return maskedJson(await forkLinks(id, await readerFrom(request.headers)));
  });
}
