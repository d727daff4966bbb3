import { exportThread } from "@/lib/db/transfer";
import { handleRoute, threadIdFrom } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const chain = ["1", "true"].includes(new URL(request.url).searchParams.get("chain") ?? "");
    const body = await exportThread(id, { chain });
    return new Response(body, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="threadline-${id}${chain ? "-chain" : ""}.json"`,
      },
    });
  });
}
