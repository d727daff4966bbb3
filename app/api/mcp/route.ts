import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError, HTTP_STATUS } from "@/lib/domain/errors";
import { parseJsonText, readBodyText } from "@/lib/http/responses";
import { createMcpServer } from "@/lib/mcp/server";

/*
 * The MCP endpoint (Streamable HTTP), stateless: every POST gets its own server and transport, no
 * session id, and the answer is one JSON response (no SSE stream). So GET (a server-to-client
 * stream) and DELETE (ending a session) answer 405, which clients take as "not offered".
 */

/** A JSON-RPC error outside any request, as the SDK's transport writes them. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * DNS rebinding protection, which the MCP spec asks of HTTP servers: non-browser clients send no
 * Origin; a browser page may call only from a loopback origin, or from the very IP address it
 * calls (a rebinding attack needs a DNS name, so an IP literal cannot be one).
 */
function originAllowed(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return LOOPBACK.has(url.hostname) || (IP_LITERAL.test(url.hostname) && url.host === request.headers.get("host"));
}

export async function POST(request: Request): Promise<Response> {
  if (!originAllowed(request)) {
    return rpcError(403, -32000, `Forbidden: origin ${JSON.stringify(request.headers.get("origin"))} may not call this server`);
  }
  // The API's own body guards: THREADLINE_MAX_BODY_BYTES, nesting depth, lone surrogates.
  let body: unknown;
  try {
    body = parseJsonText(await readBodyText(request));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return rpcError(HTTP_STATUS[error.code], error.code === "invalid_json" ? -32700 : -32000, error.message);
  }
  const server = createMcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
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
