/**
 * DELETE /api/demo-threads, the thread list's "Remove them": it deletes exactly the demo threads
 * (source "demo"), is refused from another origin (the proxy, as every write), and with sign-in
 * on is an admin's.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { proxy } from "@/proxy";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/engine/client";
import { countDemoThreads } from "@/lib/demo/demo-threads";
import { importDocuments } from "@/lib/db/imports/transfer";
import { buildDemoDocument, DEMO_IDS } from "@/lib/demo/demo-data";
import { expectError, newThread, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { DELETE } from "./route";

const ORIGIN = "http://127.0.0.1:3000";
const ADMIN = { email: "ada@example.com", password: "correct horse battery staple" };
const MEMBER = { email: "bob@example.com", password: "member password 1" };

function request(method: string, pathname: string, headers: Record<string, string> = {}, body?: unknown): NextRequest {
  return new NextRequest(`${ORIGIN}${pathname}`, {
    method,
    headers: { host: "127.0.0.1:3000", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const remove = (headers: Record<string, string> = {}) => DELETE(request("DELETE", "/api/demo-threads", headers));
const threadIds = async () => (await (await db()).thread.findMany({ select: { id: true } })).map((t) => t.id).sort();
const seedDemo = async () => (await importDocuments([buildDemoDocument()], "strict")).threadIds;

afterAll(() => {
  restoreServerEnv();
  resetAuthForTests();
});

describe("DELETE /api/demo-threads with sign-in off", () => {
  beforeAll(() => {
    setServerEnv({ THREADLINE_AUTH: "off" });
    resetAuthForTests();
  });

  it("deletes the demo threads and nothing else, then finds none", async () => {
    const seeded = await seedDemo();
    expect([...seeded].sort()).toEqual(Object.values(DEMO_IDS).sort());
    const own = [(await newThread({ toolName: "claude-code", title: "mine" })).id, (await newThread({ toolName: "demo" })).id];
    expect(await countDemoThreads()).toBe(5);

    const response = await remove();
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ removed: 5 });
    expect(await threadIds()).toEqual([...own].sort());
    expect(await (await db()).turn.count({ where: { threadId: { in: seeded } } })).toBe(0);

    expect(await (await remove()).json()).toEqual({ removed: 0 });
    await (await db()).thread.deleteMany();
  });

  it("is refused from another origin before it runs (the proxy's check of every write)", async () => {
    await seedDemo();
    const refused = await proxy(request("DELETE", "/api/demo-threads", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }));
    expect(refused.status).toBe(403);
    const allowed = await proxy(request("DELETE", "/api/demo-threads", { origin: ORIGIN, "sec-fetch-site": "same-origin" }));
    expect(allowed.status).toBe(200);
    expect(await countDemoThreads()).toBe(5);
    await (await db()).thread.deleteMany();
  });
});

describe("DELETE /api/demo-threads with sign-in on", () => {
  let admin: string;
  let member: string;

  async function signIn(person: { email: string; password: string }, ip: string): Promise<string> {
    const response = await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": ip }, person));
    expect(response.status, await response.clone().text()).toBe(200);
    return response.headers
      .getSetCookie()
      .find((c) => c.startsWith("better-auth.session_token="))!
      .split(";")[0]!;
  }

  beforeAll(async () => {
    setServerEnv({
      THREADLINE_AUTH: "on",
      THREADLINE_ADMIN_EMAIL: ADMIN.email,
      THREADLINE_ADMIN_PASSWORD: ADMIN.password,
      THREADLINE_SOURCES: "off",
      THREADLINE_PEER_HEADER: "1",
    });
    resetAuthForTests();
    admin = await signIn(ADMIN, "10.5.0.1");
    await (
      await authFor(false)
    ).api.createUser({
      body: { email: MEMBER.email, password: MEMBER.password, name: "Bob", role: "member" },
      headers: new Headers({ cookie: admin }),
    });
    member = await signIn(MEMBER, "10.5.0.2");
  });

  it("refuses a member (403) and nobody signed in (401), and removes them for an admin", async () => {
    await seedDemo();
    const refused = await expectError(await remove({ cookie: member }), 403, "forbidden");
    expect(refused.message).toMatch(/admin/);
    await expectError(await remove(), 401, "unauthorized");
    expect(await countDemoThreads()).toBe(5);

    const response = await remove({ cookie: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ removed: 5 });
    expect(await countDemoThreads()).toBe(0);
  });
});
