import { handleAuthRequest } from "@/lib/auth/server";
import { errorResponse } from "@/lib/http/responses";
import { serverSettings } from "@/lib/env";

/**
 * Better Auth's endpoints (sign-in, sign-out, session, the admin plugin's, single sign-on's
 * callback) under /api/auth. With sign-in off there is nothing here.
 */
async function handle(request: Request): Promise<Response> {
  if (!serverSettings().auth.enabled) return errorResponse(404, "not_found", "Sign-in is off (THREADLINE_AUTH)");
  return handleAuthRequest(request);
}

export { handle as GET, handle as POST };
