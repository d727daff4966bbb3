import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError } from "@/lib/domain/errors";
import { maskResponse } from "@/lib/http/masking";
import { HTTP_STATUS } from "@/lib/http/responses";
import { parseJsonText, readBodyText } from "@/lib/http/responses";
import { createMcpServer, protoKeyRefusal } from "@/lib/mcp/server";
import { readerFrom } from "@/lib/auth/reader";
import type { Reader } from "@/lib/domain/access";

/*
 * The MCP endpoint (Streamable HTTP), stateless: every POST gets its own server and transport, no
 * session id, and the answer is one JSON response (no SSE stream). So GET (a server-to-client
 * stream) and DELETE (ending a session) answer 405, which clients take as "not offered".
 * DNS rebinding protection, which the MCP spec asks of HTTP servers, is the proxy's (proxy.ts):
 * a foreign Host or a foreign browser Origin never reaches this handler.
 */

/** A JSON-RPC error outside any request, as the SDK's transport writes them. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

export async function POST(request: Request): Promise<Response> {
  // The API's own body guards: THREADLINE_MAX_BODY_BYTES, nesting depth, lone surrogates.
  let body: unknown;
  try {
    body = parseJsonText(await readBodyText(request));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return rpcError(HTTP_STATUS[error.code], error.code === "invalid_json" ? -32700 : -32000, error.message);
  }
  // Checked here, on the body as parsed: the SDK's own parsing drops "__proto__" keys silently.
  const refusal = protoKeyRefusal(body);
  if (refusal) return maskResponse(Response.json(refusal.body, { status: refusal.status }));
  let reader: Reader;
  try {
    reader = await readerFrom(request.headers);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return rpcError(HTTP_STATUS[error.code], -32000, error.message);
  }
  const server = createMcpServer(reader);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // Every tool's answer masked (lib/http/masking.ts), as the REST API's are.
    return await maskResponse(await transport.handleRequest(request, { parsedBody: body }));
  } catch (error) {
    console.error("[threadline] unexpected error in the MCP endpoint", error);
    return rpcError(500, -32603, "Internal error; see the server log.");
  } finally {
    // The JSON answer is complete by now; nothing outlives the request.
    await server.close();
  }
}

function methodNotAllowed(): Response {
  return rpcError(405, -32000, "Method not allowed: this MCP server is stateless (POST only).", { Allow: "POST" });
}

export const GET = methodNotAllowed;
export const DELETE = methodNotAllowed;
