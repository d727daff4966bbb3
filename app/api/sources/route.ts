import { handleRoute } from "@/lib/http/responses";
import { sourceSync } from "@/lib/sources/sync";

/** The followed transcript folders (THREADLINE_SOURCES): each one's state and the last sync's counts. */
export async function GET(): Promise<Response> {
  return handleRoute(async () => Response.json(sourceSync().status(), { headers: { "cache-control": "no-store" } }));
}
