/**
 * Share links with sign-in on (THREADLINE_AUTH=on), through the real proxy and Better Auth: people
 * (sessions) and their API tokens make links; a member sees and revokes their own, an admin
 * everyone's; the shared page opens signed out, and nothing else does.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { DELETE as revokeRoute } from "@/app/api/shares/[id]/route";
import { GET as listRoute } from "@/app/api/shares/route";
import { POST as createRoute } from "@/app/api/threads/[id]/shares/route";
import { POST as createToken } from "@/app/api/tokens/route";
import { GET as sharedPage } from "@/app/s/[token]/route";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { params } from "@/lib/testing/api";
import { expectError, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { proxy } from "@/proxy";

const ADMIN = { email: "ada@example.com", password: "correct horse battery staple" };
const MEMBER = { email: "bob@example.com", password: "member password 1" };
const ORIGIN = "http://127.0.0.1:3000";

function request(method: string, pathname: string, headers: Record<string, string> = {}, body?: unknown): NextRequest {
  return new NextRequest(`${ORIGIN}${pathname}`, {
    method,
    headers: { host: "127.0.0.1:3000", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function signIn(person: { email: string; password: string }, ip: string): Promise<string> {
  const response = await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": ip }, person));
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
}

type Created = { id: string; url: string; token: string };
type Listed = { id: string; createdBy: string | null };

const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";
let admin: string;
let member: string;
let memberToken: string;
let threadId: string;

async function shareAs(headers: Record<string, string>): Promise<Created> {
  const response = await createRoute(request("POST", `/api/threads/${threadId}/shares`, headers, {}), params({ id: threadId }));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Created;
}
async function listAs(headers: Record<string, string>): Promise<Listed[]> {
  const response = await listRoute(request("GET", "/api/shares", headers));
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: Listed[] }).items;
}
const revokeAs = (headers: Record<string, string>, id: string) =>
  revokeRoute(request("DELETE", `/api/shares/${id}`, headers), params({ id }));

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  setServerEnv({
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
    THREADLINE_PEER_HEADER: "1",
  });
  resetAuthForTests();
  admin = await signIn(ADMIN, "10.6.0.1");
  await (
    await authFor(false)
  ).api.createUser({
    body: { email: MEMBER.email, password: MEMBER.password, name: "Bob", role: "member" },
    headers: new Headers({ cookie: admin }),
  });
  member = await signIn(MEMBER, "10.6.0.2");
  memberToken = (
    (await (await createToken(request("POST", "/api/tokens", { cookie: member }, { name: "bob's agent" }))).json()) as {
      token: string;
    }
  ).token;
  // The member's: a link is its owner's (or an admin's) to make.
  threadId = (await newThread({ toolName: "claude-code", title: "Shared with sign-in on" }, { cookie: member })).id;
  await newTurn(threadId, { role: "user", content: "The text a visitor reads" });
});
afterAll(() => {
  restoreServerEnv();
  resetAuthForTests();
  vi.restoreAllMocks();
});

describe("share links with sign-in on", () => {
  it("lets people and their API tokens make links, and nobody signed out", async () => {
    const byMember = await shareAs({ cookie: member });
    expect(byMember.url).toBe(`${ORIGIN}/s/${byMember.token}`);
    await shareAs({ authorization: `Bearer ${memberToken}` });
    await shareAs({ cookie: admin });
    await expectError(
      await createRoute(request("POST", `/api/threads/${threadId}/shares`, {}, {}), params({ id: threadId })),
      401,
      "unauthorized",
    );
  });

  it("lists a member's own links to them, everyone's to an admin, with who made each", async () => {
    const mine = await shareAs({ cookie: member });
    const theirs = await shareAs({ cookie: admin });
    const memberList = await listAs({ cookie: member });
    expect(memberList.map((l) => l.id)).toContain(mine.id);
    expect(memberList.map((l) => l.id)).not.toContain(theirs.id);
    expect(new Set(memberList.map((l) => l.createdBy))).toEqual(new Set(["Bob"]));
    expect((await listAs({ authorization: `Bearer ${memberToken}` })).map((l) => l.id)).toEqual(memberList.map((l) => l.id));
    const adminList = await listAs({ cookie: admin });
    expect(adminList.map((l) => l.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(adminList.find((l) => l.id === theirs.id)!.createdBy).not.toBeNull();
  });

  it("lets a member revoke their own links only (403 for another's), an admin anyone's; 404 for an unknown id", async () => {
    const mine = await shareAs({ cookie: member });
    const another = await shareAs({ cookie: member });
    const theirs = await shareAs({ cookie: admin });
    const refused = await expectError(await revokeAs({ cookie: member }, theirs.id), 403, "forbidden");
    expect(refused.message).toContain("admin");
    expect((await sharedPage(request("GET", `/s/${theirs.token}`), params({ token: theirs.token }))).status).toBe(200);
    expect((await revokeAs({ cookie: member }, mine.id)).status).toBe(204);
    expect((await revokeAs({ cookie: admin }, another.id)).status).toBe(204);
    expect((await revokeAs({ cookie: admin }, theirs.id)).status).toBe(204);
    await expectError(await revokeAs({ cookie: admin }, theirs.id), 404, "not_found");
    for (const gone of [mine, another, theirs])
      expect((await sharedPage(request("GET", `/s/${gone.token}`), params({ token: gone.token }))).status).toBe(404);
  });

  it("opens the shared page signed out, and nothing else: the API answers 401, other pages go to /login", async () => {
    const created = await shareAs({ cookie: member });
    const gate = await proxy(request("GET", `/s/${created.token}`));
    expect(passes(gate)).toBe(true);
    const page = await sharedPage(request("GET", `/s/${created.token}`), params({ token: created.token }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("The text a visitor reads");
    // A visitor holding the link, from the shared page's origin, reaches no API.
    for (const path of ["/api/threads", `/api/threads/${threadId}`, "/api/shares", `/api/threads/${threadId}/export`])
      await expectError(await proxy(request("GET", path, { referer: `${ORIGIN}/s/${created.token}` })), 401, "unauthorized");
    await expectError(await proxy(request("POST", `/api/threads/${threadId}/shares`, {}, {})), 401, "unauthorized");
    // Only the page itself: a longer path, a path under it or a malformed token is a page that needs sign-in.
    for (const path of [`/s/${created.token}/x`, `/s/${created.token}x`, "/s/short", `/threads/${threadId}`]) {
      const answer = await proxy(request("GET", path));
      expect(answer.status, path).toBe(307);
      expect(new URL(answer.headers.get("location")!).pathname).toBe("/login");
    }
  });
});
