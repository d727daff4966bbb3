import { maskedJson } from "@/lib/http/masking";
import { withThreadCosts } from "@/lib/db/session-usage";
import { createThread, listThreads } from "@/lib/db/threads";
import { handleRoute, readJson } from "@/lib/http/responses";
import { parseOrThrow } from "@/lib/domain/parse";
import { createThreadSchema, listThreadsQuerySchema } from "@/lib/validation/threads";

export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const params = Object.fromEntries(new URL(request.url).searchParams);
    return maskedJson(await withThreadCosts(await listThreads(parseOrThrow(listThreadsQuerySchema, params))));
  });
}

export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const thread = await createThread(await readJson(request, createThreadSchema));
    return maskedJson({ thread }, { status: 201, headers: { Location: `/api/threads/${thread.id}` } });
  });
}
