import { readerFrom } from "@/lib/auth/reader";
import { maskedJson } from "@/lib/http/masking";
import { searchTurns } from "@/lib/db/threads/search";
import { handleRoute, readQuery } from "@/lib/http/responses";
import { searchQuerySchema } from "@/lib/validation/search";

/**
 * Hits across every thread's turns (content, tool calls, tool outputs): `{items, nextCursor}`,
 * best first, each with a snippet of the masked text search reads and the offsets of its matches.
 */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => maskedJson(await searchTurns(readQuery(request, searchQuerySchema), await readerFrom(request.headers))));
}
