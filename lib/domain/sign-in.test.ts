import { describe, expect, it } from "vitest";
import { bearerToken, disabledAuthPaths, isPublicPath, safeNextPath } from "./sign-in";

describe("safeNextPath", () => {
  it("keeps a path of this site, with its query", () => {
    expect(safeNextPath("/threads/abc?q=x%20y#t3")).toBe("/threads/abc?q=x%20y#t3");
    expect(safeNextPath("/settings")).toBe("/settings");
  });

  it("sends anything else home: other sites, schemes, backslashes, nothing", () => {
    for (const raw of ["//evil.example/x", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "evil", "", null, undefined, "/\t/evil.example", "/%0a/x\\y"]) {
      expect(safeNextPath(raw), String(raw)).toBe("/");
    }
  });
});

describe("isPublicPath", () => {
  it("opens the sign-in pages, Better Auth's endpoints and static assets only", () => {
    for (const path of ["/login", "/setup", "/api/auth/sign-in/email", "/_next/static/chunks/a.js", "/icon.svg"]) expect(isPublicPath(path), path).toBe(true);
    for (const path of ["/", "/threads", "/login/x", "/api/threads", "/api/authx", "/api/mcp", "/api/events", "/_next/data/x.json", "/settings"]) expect(isPublicPath(path), path).toBe(false);
  });
});

describe("bearerToken", () => {
  it("reads the Bearer scheme only", () => {
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken("Bearer tl_abc")).toBe("tl_abc");
    expect(bearerToken("bearer  tl_abc ")).toBe("tl_abc");
    expect(bearerToken("Basic dXNlcjpwYXNz")).toBe("");
    expect(bearerToken("Bearer a b")).toBe("");
  });
});

describe("disabledAuthPaths", () => {
  it("turns every admin endpoint off over HTTP, and the unused ones (impersonation, bans, new ones) for any caller", () => {
    const paths = ["/admin/set-role", "/admin/impersonate-user", "/admin/stop-impersonating", "/admin/ban-user", "/admin/create-user", "/admin/remove-user", "/admin/set-user-password", "/admin/revoke-user-sessions", "/admin/some-future-endpoint"];
    const disabled = disabledAuthPaths(paths);
    expect(disabled.overHttp).toEqual([...paths].sort());
    expect(disabled.always).toEqual(["/admin/ban-user", "/admin/impersonate-user", "/admin/some-future-endpoint", "/admin/stop-impersonating"]);
  });
});
