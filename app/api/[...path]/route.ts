import { quoteInput } from "@/lib/domain/secrets/quote";
import { errorResponse } from "@/lib/http/responses";

/**
 * Any /api path that no route handles answers the API's JSON error shape, not the HTML
 * not-found page. Routes that exist answer their own unsupported methods; HEAD follows GET.
 */
function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(404, "not_found", `No API endpoint ${request.method} ${quoteInput(pathname, 200)}`);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
