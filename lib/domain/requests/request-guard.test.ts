import { describe, expect, it } from "vitest";
import { allowedHostsFor, checkRequest, parseAllowedOrigins, type GuardedRequest, type RequestGuardConfig } from "./request-guard";

function config(input: { port?: string; bindHost?: string; extraHosts?: string; origins?: string } = {}): RequestGuardConfig {
  const port = input.port ?? "3000";
  return {
    port,
    allowedHosts: allowedHostsFor({ port, bindHost: input.bindHost, extraHosts: input.extraHosts }),
    allowedOrigins: parseAllowedOrigins(input.origins).origins,
  };
}

function request(overrides: Partial<GuardedRequest>): GuardedRequest {
  return { method: "GET", host: "127.0.0.1:3000", origin: null, secFetchSite: null, ...overrides };
}

const allowed = (r: Partial<GuardedRequest>, c = config()) => checkRequest(request(r), c).allowed;

describe("the Host check (DNS rebinding)", () => {
  it("answers the loopback names on the served port", () => {
    for (const host of ["127.0.0.1:3000", "localhost:3000", "LOCALHOST:3000", "[::1]:3000"]) expect(allowed({ host })).toBe(true);
  });

  it("refuses other names, other ports, no port and no Host, for reads too", () => {
    for (const host of [
      "evil.example:3000",
      "evil.example",
      "127.0.0.1:3001",
      "localhost",
      "127.0.0.1",
      "127.0.0.2:3000",
      "localhost.evil.example:3000",
      "",
      null,
    ]) {
      expect(allowed({ host }), String(host)).toBe(false);
    }
    const verdict = checkRequest(request({ host: "evil.example:3000" }), config());
    expect(verdict).toEqual({ allowed: false, reason: expect.stringContaining('"evil.example:3000"') });
    expect(!verdict.allowed && verdict.reason).toContain("THREADLINE_ALLOWED_HOSTS");
  });

  it("answers the bound address, but a wildcard bind names no host", () => {
    expect(allowed({ host: "192.168.1.20:3000" }, config({ bindHost: "192.168.1.20" }))).toBe(true);
    expect(allowed({ host: "0.0.0.0:3000" }, config({ bindHost: "0.0.0.0" }))).toBe(false);
    expect(allowed({ host: "[fe80::1]:3000" }, config({ bindHost: "fe80::1" }))).toBe(true);
  });

  it("answers THREADLINE_ALLOWED_HOSTS: a bare name bare or on the served port, a name with a port only there", () => {
    const c = config({ extraHosts: " Threadline.Example.com , box.lan:8443 ,," });
    expect(allowed({ host: "threadline.example.com" }, c)).toBe(true);
    expect(allowed({ host: "threadline.example.com:3000" }, c)).toBe(true);
    expect(allowed({ host: "threadline.example.com:4000" }, c)).toBe(false);
    expect(allowed({ host: "box.lan:8443" }, c)).toBe(true);
    expect(allowed({ host: "box.lan" }, c)).toBe(false);
  });

  it("leaves the port out on port 80, as browsers do", () => {
    expect(allowed({ host: "localhost" }, config({ port: "80" }))).toBe(true);
  });
});

describe("the Origin check (cross-site writes)", () => {
  const write = (origin: string | null, extra: Partial<GuardedRequest> = {}, c = config()) =>
    allowed({ method: "POST", origin, ...extra }, c);

  it("lets the server's own pages write, under http or https", () => {
    expect(write("http://127.0.0.1:3000")).toBe(true);
    expect(write("http://localhost:3000", { host: "localhost:3000" })).toBe(true);
    expect(
      write("https://threadline.example.com", { host: "threadline.example.com" }, config({ extraHosts: "threadline.example.com" })),
    ).toBe(true);
  });

  it("refuses every other origin, whatever the method: another site, another port, another loopback name, null", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "post"]) {
      expect(allowed({ method, origin: "http://evil.example" })).toBe(false);
    }
    for (const origin of ["http://evil.example", "http://127.0.0.1:5173", "http://localhost:3000", "null", "file://", "not a url"]) {
      expect(write(origin), origin).toBe(false);
    }
    const verdict = checkRequest(request({ method: "DELETE", origin: "http://127.0.0.1:5173" }), config());
    expect(!verdict.allowed && verdict.reason).toMatch(/DELETE from the origin "http:\/\/127.0.0.1:5173" is refused/);
  });

  it("lets writes through from THREADLINE_ALLOWED_ORIGINS, normalised", () => {
    const c = config({ origins: "https://Tools.Example.com:443/, http://127.0.0.1:5173" });
    expect(write("https://tools.example.com", {}, c)).toBe(true);
    expect(write("http://127.0.0.1:5173", {}, c)).toBe(true);
    expect(write("http://127.0.0.1:5174", {}, c)).toBe(false);
  });

  it("keeps requests without an Origin working (curl, agents, MCP clients), unless the browser says cross-site", () => {
    expect(write(null)).toBe(true);
    expect(write(null, { secFetchSite: "same-origin" })).toBe(true);
    expect(write(null, { secFetchSite: "none" })).toBe(true);
    expect(write(null, { secFetchSite: "cross-site" })).toBe(false);
    expect(write(null, { secFetchSite: "same-site" })).toBe(false);
  });

  it("lets reads through from any origin: the browser keeps their answers from the page (no CORS headers)", () => {
    expect(allowed({ method: "GET", origin: "http://evil.example", secFetchSite: "cross-site" })).toBe(true);
    expect(allowed({ method: "HEAD", origin: "http://evil.example" })).toBe(true);
  });
});

describe("THREADLINE_ALLOWED_ORIGINS parsing", () => {
  it("reports entries that are not http(s) origins", () => {
    const parsed = parseAllowedOrigins("https://a.example, evil.example, ftp://x.example,");
    expect([...parsed.origins]).toEqual(["https://a.example"]);
    expect(parsed.invalid).toEqual(["evil.example", "ftp://x.example"]);
  });
});
