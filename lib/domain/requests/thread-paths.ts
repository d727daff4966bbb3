/**
 * Which requests name a thread in their path, and what they do to it, for the sign-in gate's
 * ownership check (lib/auth/thread-gate.ts): every route under /api/threads/:id and every page
 * under /threads/:id is checked in one place, so no route can forget to.
 */
export type ThreadRequest = { threadId: string; api: boolean; action: "read" | "manage" };

const THREAD_PATH = /^\/(api\/)?threads\/([^/]+)(?:\/([^/]+))?/;
/** POSTs that read the thread: an export with options, a fork (the fork is the requester's own thread). */
const READING_POSTS = new Set(["export", "forks"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function threadRequest(method: string, pathname: string): ThreadRequest | null {
  const match = THREAD_PATH.exec(pathname);
  if (!match) return null;
  const api = match[1] !== undefined;
  let threadId: string;
  try {
    threadId = decodeURIComponent(match[2]!);
  } catch {
    return null; // not an id: the route answers its own 404
  }
  // A page's POST is a server action, which checks the thread its input names (lib/actions).
  const reads = SAFE_METHODS.has(method) || !api || READING_POSTS.has(match[3] ?? "");
  return { threadId, api, action: reads ? "read" : "manage" };
}

/** API writes a viewer may still make: signing in and out, their own tokens, MCP (its tools check), an export. */
export function viewerMayPost(pathname: string): boolean {
  return (
    pathname.startsWith("/api/auth/") ||
    pathname === "/api/mcp" ||
    pathname === "/api/tokens" ||
    pathname.startsWith("/api/tokens/") ||
    /^\/api\/threads\/[^/]+\/export$/.test(pathname)
  );
}

export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);
