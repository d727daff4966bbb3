import { describe, expect, it } from "vitest";
import { threadRequest, viewerMayPost } from "./thread-paths";

const ID = "3f1c0a52-9d7e-4a55-8a8e-6f7f6b0e9a11";

describe("requests that name a thread", () => {
  it("finds the thread in API routes and pages; reads are GETs, a fork and an export with options", () => {
    expect(threadRequest("GET", `/api/threads/${ID}`)).toEqual({ threadId: ID, api: true, action: "read" });
    expect(threadRequest("GET", `/api/threads/${ID}/turns/3`)).toEqual({ threadId: ID, api: true, action: "read" });
    expect(threadRequest("POST", `/api/threads/${ID}/forks`)?.action).toBe("read");
    expect(threadRequest("POST", `/api/threads/${ID}/export`)?.action).toBe("read");
    expect(threadRequest("POST", `/api/threads/${ID}/turns`)?.action).toBe("manage");
    expect(threadRequest("PUT", `/api/threads/${ID}/visibility`)?.action).toBe("manage");
    expect(threadRequest("DELETE", `/api/threads/${ID}`)?.action).toBe("manage");
    // A page's POST is a server action, which checks the thread it names itself.
    expect(threadRequest("POST", `/threads/${ID}/compact`)).toEqual({ threadId: ID, api: false, action: "read" });
  });

  it("leaves other paths alone, and a malformed id to the route's own 404", () => {
    expect(threadRequest("GET", "/api/threads")).toBeNull();
    expect(threadRequest("POST", "/api/threads")).toBeNull();
    expect(threadRequest("GET", "/threads")).toBeNull();
    expect(threadRequest("GET", "/api/threadsX/1")).toBeNull();
    expect(threadRequest("GET", "/api/threads/%E0%A4%A")).toBeNull();
  });

  it("lets a viewer post only to sign in and out, their tokens, MCP and an export", () => {
    expect(viewerMayPost("/api/auth/sign-out")).toBe(true);
    expect(viewerMayPost("/api/tokens")).toBe(true);
    expect(viewerMayPost("/api/mcp")).toBe(true);
    expect(viewerMayPost(`/api/threads/${ID}/export`)).toBe(true);
    expect(viewerMayPost("/api/import")).toBe(false);
    expect(viewerMayPost(`/api/threads/${ID}/turns`)).toBe(false);
  });
});
