import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/lib/domain/errors";
import type { Reader } from "@/lib/domain/access";
import { isSafeMethod, threadRequest, viewerMayPost } from "@/lib/domain/requests/thread-paths";
import { requireManageableThread, requireReadableThread, viewerRefusal } from "./thread-access";

/**
 * After sign-in: a request that names a thread the person may not read answers as if it did not
 * exist (404: the API's error, or the not-found page), one that would change a thread they do not
 * own answers 403, and a viewer's API writes answer 403. Null: the request goes on.
 */
export async function threadGate(request: NextRequest, reader: Reader): Promise<NextResponse | null> {
  const { pathname } = request.nextUrl;
  if (reader?.role === "viewer" && pathname.startsWith("/api/") && !isSafeMethod(request.method) && !viewerMayPost(pathname))
    return refusal(viewerRefusal());
  const named = threadRequest(request.method, pathname);
  if (!named) return null;
  try {
    if (named.action === "manage") await requireManageableThread(reader, named.threadId);
    else await requireReadableThread(reader, named.threadId);
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (named.api) return refusal(error);
    // A page: Next.js's not-found page, as for a thread that was never stored.
    return NextResponse.rewrite(new URL("/threads/not-found", request.url), { status: 404 });
  }
}

function refusal(error: AppError): NextResponse {
  const status = error.code === "not_found" ? 404 : 403;
  return NextResponse.json({ error: { code: error.code, message: error.message } }, { status });
}
