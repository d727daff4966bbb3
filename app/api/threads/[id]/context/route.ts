import { maskedJson } from "@/lib/http/masking";
import { buildContextPreview } from "@/lib/context/build-context";
import { handleRoute, readQuery, threadIdFrom } from "@/lib/http/responses";
import { contextQuerySchema } from "@/lib/validation/context";

type Context = { params: Promise<{ id: string }> };

/** What a model would be sent to continue this thread, and what was cut. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = readQuery(request, contextQuerySchema);
    return maskedJson(await buildContextPreview(id, query));
  });
}
