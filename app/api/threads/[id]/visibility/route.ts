import { setThreadVisibility } from "@/lib/db/people/visibility";
import { threadNotFound } from "@/lib/db/threads/threads";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { setVisibilitySchema } from "@/lib/validation/visibility";

type Context = { params: Promise<{ id: string }> };

/**
 * Shares the thread with the team, or makes it private again: `{visibility}`. Its owner's or an
 * admin's (the sign-in gate checks, lib/auth/thread-gate.ts). With sign-in off it is stored and
 * changes nothing until sign-in is on.
 */
export async function PUT(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const { visibility } = await readJson(request, setVisibilitySchema);
    if (!(await setThreadVisibility(id, visibility))) throw threadNotFound(id);
    return Response.json({ id, visibility });
  });
}
