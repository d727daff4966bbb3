/**
 * The sign-in limits through Better Auth's real route handler, on the test file's database: per
 * client address (the peer scripts/server.mjs records, X-Forwarded-For only from a trusted proxy)
 * and per account (failures whatever the address), each answering 429 with Retry-After.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/engine/client";
import { releaseSignInAttempt, reserveSignInAttempt } from "@/lib/db/people/sign-in-limits";
import { SIGN_IN_ACCOUNT_LIMIT, SIGN_IN_PEER_LIMIT, signInAccountKey } from "@/lib/domain/requests/sign-in";
import { resetServerSettingsForTests, serverSettings } from "@/lib/env";
import { sourceSync } from "@/lib/sources/sync";
import { restoreServerEnv, setServerEnv } from "@/lib/testing/integration";

const ADMIN = { email: "ada@example.com", password: "correct horse battery staple" };
const logged: string[] = [];
let serial = 0;

/** A sign-in as a request reaching the app through scripts/server.mjs from `peer`, with more headers as a client (or proxy) sent them. */
function attempt(credentials: { email: string; password: string }, peer: string, headers: Record<string, string> = {}): Promise<Response> {
  const request = new NextRequest("http://127.0.0.1:3000/api/auth/sign-in/email", {
    method: "POST",
    headers: { host: "127.0.0.1:3000", "content-type": "application/json", "x-threadline-peer": peer, ...headers },
    body: JSON.stringify(credentials),
  });
  return authPost(request);
}

/** An email nobody has and no other test claims: per-account counts stay out of the way. */
const nobody = () => `nobody-${++serial}@example.com`;

/** A person of their own for each test that locks an account. */
async function newPerson(): Promise<{ email: string; password: string }> {
  const person = { email: `person-${++serial}@example.com`, password: `password of person ${serial}` };
  const auth = await authFor(false);
  await auth.api.createUser({ body: { ...person, name: `Person ${serial}`, role: "member" } });
  return person;
}

function retryAfter(response: Response): number {
  const value = response.headers.get("retry-after");
  expect(value, "a 429 says when to come back").toMatch(/^\d+$/);
  return Number(value);
}

beforeAll(() => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  }
  setServerEnv({
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
    THREADLINE_PEER_HEADER: "1",
    THREADLINE_TRUSTED_PROXIES: "",
  });
  resetAuthForTests();
});
beforeEach(() => setServerEnv({ THREADLINE_PEER_HEADER: "1", THREADLINE_TRUSTED_PROXIES: "" }));
afterAll(() => {
  sourceSync().close();
  restoreServerEnv();
  resetAuthForTests();
  vi.restoreAllMocks();
});

describe("per client address", () => {
  it("limits one peer whatever X-Forwarded-For each attempt claims; the right password waits too", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PEER_LIMIT.max + 2; i++) {
      const response = await attempt({ email: nobody(), password: "guess" }, "198.51.100.7", { "x-forwarded-for": `10.66.0.${i}` });
      statuses.push(response.status);
      if (response.status === 429) expect(retryAfter(response)).toBeGreaterThan(0);
      if (response.status === 429) expect(retryAfter(response)).toBeLessThanOrEqual(SIGN_IN_PEER_LIMIT.window);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect((await attempt(ADMIN, "198.51.100.7", { "x-forwarded-for": "10.66.1.1" })).status).toBe(429);
    expect((await attempt(ADMIN, "198.51.100.8")).status).toBe(200);
  });

  it("ignores a client's own x-threadline-client header", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PEER_LIMIT.max + 1; i++)
      statuses.push(
        (await attempt({ email: nobody(), password: "guess" }, "198.51.100.20", { "x-threadline-client": `10.67.0.${i}` })).status,
      );
    expect(statuses.at(-1)).toBe(429);
  });

  it("behind a trusted proxy, counts the address it forwards: one bucket per client, the proxy's own untouched", async () => {
    setServerEnv({ THREADLINE_TRUSTED_PROXIES: "192.0.2.10, 2001:db8:1::/48" });
    const viaProxy = (client: string) =>
      attempt({ email: nobody(), password: "guess" }, "192.0.2.10", { "x-forwarded-for": `6.6.6.6, ${client}` });
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PEER_LIMIT.max + 1; i++) statuses.push((await viaProxy("203.0.113.50")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Other people behind the same proxy are other clients; so is one behind an IPv6 proxy.
    expect((await viaProxy("203.0.113.51")).status).toBe(401);
    expect((await attempt({ email: nobody(), password: "guess" }, "2001:db8:1::7", { "x-forwarded-for": "203.0.113.50" })).status).toBe(
      429,
    );
    // A peer that is not a trusted proxy is its own client, whatever it forwards.
    const direct: number[] = [];
    for (let i = 0; i < SIGN_IN_PEER_LIMIT.max + 1; i++)
      direct.push((await attempt({ email: nobody(), password: "guess" }, "198.51.100.30", { "x-forwarded-for": `10.68.0.${i}` })).status);
    expect(direct.at(-1)).toBe(429);
    // The session remembers the forwarded address, not the proxy's.
    const signedIn = await attempt(ADMIN, "192.0.2.10", { "x-forwarded-for": "203.0.113.60" });
    expect(signedIn.status).toBe(200);
    const token = decodeURIComponent(
      signedIn.headers
        .getSetCookie()
        .find((c) => c.startsWith("better-auth.session_token="))!
        .split(";")[0]!
        .split("=")[1]!,
    ).split(".")[0]!;
    expect((await (await db()).session.findUniqueOrThrow({ where: { token } })).ipAddress).toBe("203.0.113.60");
  });

  it("without scripts/server.mjs in front, trusts no x-threadline-peer: every attempt shares one count, and the log says why", async () => {
    setServerEnv({ THREADLINE_PEER_HEADER: undefined });
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PEER_LIMIT.max + 1; i++)
      statuses.push((await attempt({ email: nobody(), password: "guess" }, `198.51.100.${100 + i}`)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(logged.join("\n")).toContain("started without scripts/server.mjs");
  });
});

describe("per account", () => {
  it("locks an account after 10 wrong passwords from 10 addresses: 429 with Retry-After, the right password included; others sign in", async () => {
    const person = await newPerson();
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT.max; i++)
      statuses.push(
        (await attempt({ ...person, password: `guess ${i}` }, `203.0.113.${i + 1}`, { "x-forwarded-for": `10.70.0.${i}` })).status,
      );
    expect(statuses).toEqual(new Array(SIGN_IN_ACCOUNT_LIMIT.max).fill(401));
    // However the email is written, from a fresh address, with the right password: locked.
    for (const email of [person.email, person.email.toUpperCase()]) {
      const locked = await attempt({ email, password: person.password }, "203.0.113.200");
      expect(locked.status, email).toBe(429);
      expect(retryAfter(locked)).toBeGreaterThan(SIGN_IN_ACCOUNT_LIMIT.window - 60);
      expect(retryAfter(locked)).toBeLessThanOrEqual(SIGN_IN_ACCOUNT_LIMIT.window);
      expect((await locked.json()).message).toMatch(/try again in 1[45] minutes/);
    }
    expect((await attempt(ADMIN, "203.0.113.201")).status).toBe(200);
  });

  it("counts only wrong passwords: the owner signing in again and again is never locked", async () => {
    const person = await newPerson();
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT.max + 2; i++)
      expect((await attempt(person, `203.0.114.${i + 1}`)).status, `sign-in ${i + 1}`).toBe(200);
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT.max - 1; i++)
      expect((await attempt({ ...person, password: "wrong" }, `203.0.115.${i + 1}`)).status).toBe(401);
    expect((await attempt(person, "203.0.115.100")).status).toBe(200);
  });

  it("lets at most 10 of 25 guesses sent at once from 25 addresses reach the password check", async () => {
    const person = await newPerson();
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => attempt({ ...person, password: `parallel ${i}` }, `203.0.116.${i + 1}`)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_ACCOUNT_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25 - SIGN_IN_ACCOUNT_LIMIT.max);
  });
});

describe("the account count in the database", () => {
  const limit = { window: 900, max: 3 };

  it("locks for the rest of the window, does not count attempts made while locked, and starts over after it", async () => {
    const database = await db();
    const key = signInAccountKey(`window-${++serial}@example.com`)!;
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < limit.max; i++) expect((await reserveSignInAttempt(key, limit, t0 + i * 1000)).allowed).toBe(true);
    expect(await reserveSignInAttempt(key, limit, t0 + 5_000)).toEqual({ allowed: false, retryAfter: 895 });
    expect(await reserveSignInAttempt(key, limit, t0 + 899_001)).toEqual({ allowed: false, retryAfter: 1 });
    const next = await reserveSignInAttempt(key, limit, t0 + 900_000);
    expect(next).toEqual({ allowed: true, windowEnd: BigInt(t0 + 1_800_000) });
    expect(await database.rateLimit.findUniqueOrThrow({ where: { key } })).toMatchObject({ count: 1 });
  });

  it("hands an attempt back to its own window only", async () => {
    const database = await db();
    const key = signInAccountKey(`release-${++serial}@example.com`)!;
    const t0 = 1_800_000_000_000;
    const first = await reserveSignInAttempt(key, limit, t0);
    await reserveSignInAttempt(key, limit, t0 + 1000);
    await releaseSignInAttempt(key, (first as { windowEnd: bigint }).windowEnd);
    expect((await database.rateLimit.findUniqueOrThrow({ where: { key } })).count).toBe(1);
    await reserveSignInAttempt(key, limit, t0 + 901_000); // a new window
    await releaseSignInAttempt(key, (first as { windowEnd: bigint }).windowEnd);
    expect((await database.rateLimit.findUniqueOrThrow({ where: { key } })).count).toBe(1);
  });
});

describe("THREADLINE_TRUSTED_PROXIES", () => {
  it("stops the settings with an error naming a malformed entry", () => {
    process.env.THREADLINE_TRUSTED_PROXIES = "10.0.0.1, 10.0.0.0/40";
    resetServerSettingsForTests();
    expect(() => serverSettings()).toThrow('THREADLINE_TRUSTED_PROXIES: "10.0.0.0/40" is not an IP address or CIDR range');
    setServerEnv({ THREADLINE_TRUSTED_PROXIES: "" });
  });
});
