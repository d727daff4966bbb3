import { describe, expect, it } from "vitest";
import {
  bearerToken,
  disabledAuthPaths,
  isPublicPath,
  retryAfterSeconds,
  safeNextPath,
  SIGN_IN_ACCOUNT_LIMIT,
  SIGN_IN_PEER_LIMIT,
  signInAccountKey,
  tooManyAttemptsMessage,
} from "./sign-in";

describe("safeNextPath", () => {
  it("keeps a path of this site, with its query", () => {
    expect(safeNextPath("/threads/abc?q=x%20y#t3")).toBe("/threads/abc?q=x%20y#t3");
    expect(safeNextPath("/settings")).toBe("/settings");
  });

  it("sends anything else home: other sites, schemes, backslashes, nothing", () => {
    for (const raw of [
      "//evil.example/x",
      "/\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "evil",
      "",
      null,
      undefined,
      "/\t/evil.example",
      "/%0a/x\\y",
    ]) {
      expect(safeNextPath(raw), String(raw)).toBe("/");
    }
  });
});

describe("isPublicPath", () => {
  it("opens the sign-in pages, Better Auth's endpoints and static assets only", () => {
    const token = "A".repeat(42) + "_";
    for (const path of ["/login", "/setup", "/api/auth/sign-in/email", "/_next/static/chunks/a.js", "/icon.svg", `/s/${token}`])
      expect(isPublicPath(path), path).toBe(true);
    for (const path of [
      "/",
      "/threads",
      "/login/x",
      "/api/threads",
      "/api/authx",
      "/api/mcp",
      "/api/events",
      "/_next/data/x.json",
      "/settings",
      // Only a well-formed token's page: nothing under it, nothing beside it.
      "/s/",
      "/s/short",
      `/s/${token}x`,
      `/s/${token}/`,
      `/s/${token}/more`,
      `/s/${token.slice(1)}.`,
      `/api/s/${token}`,
    ])
      expect(isPublicPath(path), path).toBe(false);
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
    const paths = [
      "/admin/set-role",
      "/admin/impersonate-user",
      "/admin/stop-impersonating",
      "/admin/ban-user",
      "/admin/create-user",
      "/admin/remove-user",
      "/admin/set-user-password",
      "/admin/revoke-user-sessions",
      "/admin/some-future-endpoint",
    ];
    const disabled = disabledAuthPaths(paths);
    expect(disabled.overHttp).toEqual([...paths].sort());
    expect(disabled.always).toEqual([
      "/admin/ban-user",
      "/admin/impersonate-user",
      "/admin/some-future-endpoint",
      "/admin/stop-impersonating",
    ]);
  });
});

describe("the sign-in limits", () => {
  it("allow 5 attempts a minute per address, and lock an account after 10 failures for the rest of 15 minutes", () => {
    expect(SIGN_IN_PEER_LIMIT).toEqual({ window: 60, max: 5 });
    expect(SIGN_IN_ACCOUNT_LIMIT).toEqual({ window: 900, max: 10 });
  });

  it("count an account by the email as Better Auth looks it up, existing or not", () => {
    expect(signInAccountKey("Ada@Example.com")).toBe("sign-in-account:ada@example.com");
    expect(signInAccountKey(" ada@example.com ")).toBe(signInAccountKey("ADA@EXAMPLE.COM"));
    expect(signInAccountKey("nobody@example.com")).toBe("sign-in-account:nobody@example.com");
    for (const claim of [undefined, null, 42, {}, ["ada@example.com"], "", "   ", `${"a".repeat(320)}@x`])
      expect(signInAccountKey(claim), String(claim)).toBeNull();
  });

  it("say when to come back in whole seconds, never 0", () => {
    expect(retryAfterSeconds(10_000, 0)).toBe(10);
    expect(retryAfterSeconds(10_000, 9_001)).toBe(1);
    expect(retryAfterSeconds(10_000, 10_000)).toBe(1);
    expect(retryAfterSeconds(10_000, 20_000)).toBe(1);
  });

  it("tell the login page's reader how long to wait", () => {
    expect(tooManyAttemptsMessage(null)).toBe("Too many attempts: wait a minute and try again.");
    expect(tooManyAttemptsMessage("42")).toBe("Too many attempts: wait a minute and try again.");
    expect(tooManyAttemptsMessage("nonsense")).toBe("Too many attempts: wait a minute and try again.");
    expect(tooManyAttemptsMessage("61")).toBe("Too many attempts: try again in 2 minutes.");
    expect(tooManyAttemptsMessage("900")).toBe("Too many attempts: try again in 15 minutes.");
  });
});
