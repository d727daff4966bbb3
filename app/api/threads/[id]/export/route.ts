import { exportThread } from "@/lib/db/transfer";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = new URL(request.url).searchParams;
    const flag = (name: string) => ["1", "true"].includes(query.get(name) ?? "");
    const chain = flag("chain");
    // Expired threads are not found by default, as everywhere in the API; the UI opts in so a
    // user can keep a copy before purging.
    const redact = flag("redact");
    const body = await exportThread(id, { chain, includeExpired: flag("includeExpired"), redact });
    return new Response(body, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="threadline-${id}${chain ? "-chain" : ""}${redact ? "-redacted" : ""}.json"`,
      },
    });
  });
}
