import { readerFrom } from "@/lib/auth/reader";
import { maskedJson } from "@/lib/http/masking";
import { withSessionFigures } from "@/lib/db/usage/session-figures";
import { withThreadCosts } from "@/lib/db/usage/session-usage";
import { createThread, listThreads } from "@/lib/db/threads/threads";
import { handleRoute, readJson, readQuery } from "@/lib/http/responses";
import { createThreadSchema, listThreadsQuerySchema } from "@/lib/validation/threads";

export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    return maskedJson(
      await withSessionFigures(
        await withThreadCosts(await listThreads(readQuery(request, listThreadsQuerySchema), await readerFrom(request.headers))),
      ),
    );
  });
}

export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const thread = await createThread(await readJson(request, createThreadSchema), await readerFrom(request.headers));
    return maskedJson({ thread }, { status: 201, headers: { Location: `/api/threads/${thread.id}` } });
  });
}
