import { requireAdmin } from "@/lib/auth/principal";
import { removeDemoThreads } from "@/lib/demo/demo-threads";
import { handleRoute } from "@/lib/http/responses";

/**
 * Removes the demo threads `npm start` seeded (source "demo"), and nothing else: `{removed}`. A
 * write like any other (the proxy refuses it from another origin); with sign-in on, an admin's.
 */
export async function DELETE(request: Request): Promise<Response> {
  return handleRoute(async () => {
    await requireAdmin(request.headers, "remove the demo threads");
    return Response.json({ removed: await removeDemoThreads() });
  });
}
