import { maskedJson } from "@/lib/http/masking";
import { buildContextPreview } from "@/lib/context/build-context";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";
import { parseOrThrow } from "@/lib/domain/parse";
import { contextQuerySchema } from "@/lib/validation/context";

type Context = { params: Promise<{ id: string }> };

/** What a model would be sent to continue this thread, and what was cut. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = parseOrThrow(contextQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return maskedJson(await buildContextPreview(id, query));
  });
}
