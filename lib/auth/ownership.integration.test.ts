/**
 * Threads belong to people (issue 39), through the real proxy and route handlers on the test
 * file's real database, sign-in on: each person's threads are private until shared (404 for
 * anyone else, on every route under /api/threads/:id), the list, search, facets, usage, insights,
 * secrets and MCP show only what the reader may read, sharing per thread and per project, the
 * viewer role, imports owned by the importer, and the first admin owning what nobody owns.
 */
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { POST as importRoute } from "@/app/api/import/route";
import { GET as insightsRoute } from "@/app/api/insights/route";
import { POST as mcpRoute } from "@/app/api/mcp/route";
import { GET as searchRoute } from "@/app/api/search/route";
import { GET as secretsRoute } from "@/app/api/secrets/route";
import { PUT as threadVisibilityRoute } from "@/app/api/threads/[id]/visibility/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/threads/route";
import { POST as tokenRoute } from "@/app/api/tokens/route";
import { GET as usageRoute } from "@/app/api/usage/route";
import { PUT as projectVisibilityRoute } from "@/app/api/visibility/projects/route";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/engine/client";
import type { InsightsReport, TeamFigures } from "@/lib/domain/insights/insights-report";
import { refreshUsageBuckets } from "@/lib/db/usage/usage-aggregates";
import { scanForSecrets } from "@/lib/secrets/scan";
import { params } from "@/lib/testing/api";
import { pricedDocument } from "@/lib/testing/priced-document";
import { routeFiles } from "@/lib/testing/api-routes";
import { expectError, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { proxy } from "@/proxy";

const ORIGIN = "http://127.0.0.1:3000";
const ADMIN = { email: "ada@example.com", password: "correct horse battery staple" };
const people = {
  bob: { email: "bob@example.com", password: "bob's password 1", role: "member" },
  cy: { email: "cy@example.com", password: "cy's password 12", role: "member" },
  vi: { email: "vi@example.com", password: "vi's password 12", role: "viewer" },
} as const;
type Person = keyof typeof people | "admin";
const cookies = {} as Record<Person, string>;

function request(method: string, pathname: string, who: Person | null, body?: unknown): NextRequest {
  return new NextRequest(`${ORIGIN}${pathname}`, {
    method,
    headers: {
      host: "127.0.0.1:3000",
      origin: ORIGIN,
      ...(who ? { cookie: cookies[who] } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Through the proxy, as a browser's request goes: its answer when it refuses, else null. */
async function refusedByProxy(req: NextRequest): Promise<Response | null> {
  const answer = await proxy(req);
  return answer.headers.get("x-middleware-next") === "1" ? null : answer;
}

async function signIn(person: { email: string; password: string }, ip: string): Promise<string> {
  const response = await authPost(
    new NextRequest(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { host: "127.0.0.1:3000", "content-type": "application/json", "x-threadline-peer": ip },
      body: JSON.stringify(person),
    }),
  );
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
}

async function ok<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

/** A threadline/v1 document of one thread with one priced response, a word to search for, and a secret. */
function documentOf(title: string, word: string, project: string | null = null) {
  return pricedDocument({
    title,
    project,
    at: "2026-11-20T10:00:00.000Z",
    question: `tell me about ${word}`,
    answer: `${word} is a word; key ghp_${"a1B2c3D4e5".repeat(4).slice(0, 36)}`,
  });
}

async function importAs(who: Person, document: unknown): Promise<void> {
  await ok(await importRoute(request("POST", "/api/import", who, document)), 201);
}

const listIds = async (who: Person, query = "") =>
  (await ok<{ items: { id: string }[] }>(await listRoute(request("GET", `/api/threads${query}`, who)))).items.map((t) => t.id);
/** The threads of a search's hits (a thread with several matching turns once). */
const searchIds = async (who: Person, q: string) => [
  ...new Set(
    (await ok<{ items: { threadId: string }[] }>(await searchRoute(request("GET", `/api/search?q=${q}`, who)))).items.map(
      (h) => h.threadId,
    ),
  ),
];
const usageOf = async (who: Person, query = "") =>
  ok<{ totals: { responses: number; costUsd: number; threads: number }; rows: { key: string; title?: string | null }[] }>(
    await usageRoute(request("GET", `/api/usage?since=2026-11-01&until=2026-11-30&tz=UTC${query}`, who)),
  );

let bobs: string;
let cys: string;
let unowned: string;

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  // One thread made before sign-in: nobody's, so the first admin's.
  setServerEnv({ THREADLINE_AUTH: "off", THREADLINE_SOURCES: "off" });
  const before = documentOf("made before sign-in", "zeppelin");
  await ok(await importRoute(request("POST", "/api/import", null, before.document)), 201);
  unowned = before.id;
  setServerEnv({
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
    THREADLINE_PEER_HEADER: "1",
  });
  resetAuthForTests();
  cookies.admin = await signIn(ADMIN, "10.9.0.1");
  const auth = await authFor(false);
  for (const [name, person] of Object.entries(people)) {
    await auth.api.createUser({
      body: { email: person.email, password: person.password, name, role: person.role as "member" },
      headers: new Headers({ cookie: cookies.admin }),
    });
    cookies[name as Person] = await signIn(person, `10.9.0.${name.length + 2}`);
  }
  const bob = documentOf("bob's private plans", "zeppelin", "/work/bob-project");
  const cy = documentOf("cy's private plans", "zeppelin");
  await importAs("bob", bob.document);
  await importAs("cy", cy.document);
  bobs = bob.id;
  cys = cy.id;
});
afterAll(() => {
  restoreServerEnv();
  resetAuthForTests();
  vi.restoreAllMocks();
});

describe("threads belong to people, private until shared", () => {
  it("stores the importer as owner, private, and what nobody owns as nobody's", async () => {
    const rows = await (
      await db()
    ).thread.findMany({ where: { id: { in: [bobs, cys, unowned] } }, select: { id: true, ownerId: true, visibility: true } });
    const users = await (await db()).user.findMany({ select: { id: true, email: true } });
    const idOf = (email: string) => users.find((u) => u.email === email)!.id;
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.ownerId, r.visibility]]))).toEqual({
      [bobs]: [idOf(people.bob.email), "private"],
      [cys]: [idOf(people.cy.email), "private"],
      [unowned]: [null, "private"],
    });
  });

  it("lists, searches and shows each person only their own; the first admin also what nobody owns", async () => {
    expect(await listIds("bob")).toEqual([bobs]);
    expect(await listIds("cy")).toEqual([cys]);
    expect(await listIds("vi")).toEqual([]);
    expect(await listIds("admin")).toEqual([unowned]);
    expect(await searchIds("bob", "zeppelin")).toEqual([bobs]);
    expect(await searchIds("admin", "zeppelin")).toEqual([unowned]);
    expect(await listIds("cy", "?q=zeppelin")).toEqual([cys]);
    // Another's project is not even a filter choice.
    const facets = await (await import("@/lib/db/threads/threads")).listFacets({ userId: "nobody", role: "member", ownsUnowned: false });
    expect(facets.projects).toEqual([]);
  });

  it("answers 404, as for a thread that does not exist, on every route under /api/threads/:id, and on the page", async () => {
    const routes = routeFiles().filter((r) => r.route.startsWith("threads/[id]"));
    expect(routes.length).toBeGreaterThan(15);
    let checked = 0;
    for (const route of routes) {
      const path = `/api/${route.route.replace("[id]", cys).replace("[index]", "0")}`;
      for (const method of ["GET", "POST", "PUT", "DELETE"].filter((m) => new RegExp(`function ${m}\\b`).test(route.source))) {
        const refused = await refusedByProxy(request(method, path, "bob", method === "GET" || method === "DELETE" ? undefined : {}));
        expect(refused, `${method} ${path}`).not.toBeNull();
        const body = await expectError(refused!, 404, "not_found");
        expect(body.message).toContain(`Thread ${cys} not found`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // Its owner passes; the page is the not-found page for anyone else.
    expect(await refusedByProxy(request("GET", `/api/threads/${cys}`, "cy"))).toBeNull();
    expect((await refusedByProxy(request("GET", `/threads/${cys}`, "bob")))?.status).toBe(404);
    expect(await refusedByProxy(request("GET", `/threads/${cys}`, "cy"))).toBeNull();
  });

  it("sums usage over what a person may read; an admin sums everyone's, without the titles of others' private threads", async () => {
    await refreshUsageBuckets();
    const bob = await usageOf("bob");
    const admin = await usageOf("admin");
    expect(bob.totals.responses).toBe(1);
    expect(admin.totals.responses).toBe(3);
    expect(admin.totals.costUsd).toBeCloseTo(3 * bob.totals.costUsd, 10);
    const byThread = await usageOf("admin", "&groupBy=thread");
    const titles = Object.fromEntries(byThread.rows.map((r) => [r.key, r.title]));
    expect(titles).toEqual({ [bobs]: null, [cys]: null, [unowned]: "made before sign-in" });
    // Team figures: per person, each one's own figures; together, the whole.
    const byPerson = await usageOf("admin", "&groupBy=person");
    const users = await (await db()).user.findMany({ select: { id: true, name: true } });
    expect(new Set(byPerson.rows.map((r) => r.title))).toEqual(
      new Set(["bob", "cy", users.find((u) => !["bob", "cy", "vi"].includes(u.name))!.name]),
    );
    const bobsRow = byPerson.rows.find((r) => r.title === "bob") as unknown as { costUsd: number; responses: number };
    expect(bobsRow.responses).toBe(bob.totals.responses);
    expect(bobsRow.costUsd).toBeCloseTo(bob.totals.costUsd, 10);
    const summed = (byPerson.rows as unknown as { costUsd: number }[]).reduce((sum, row) => sum + row.costUsd, 0);
    expect(summed).toBeCloseTo(admin.totals.costUsd, 10);
    expect((await usageOf("admin", "&groupBy=machine")).rows.map((r) => r.key)).toEqual([""]);
    const insights = await ok<{ sessions: { count: number } }>(
      await insightsRoute(request("GET", "/api/insights?since=2026-11-01&until=2026-11-30&tz=UTC", "bob")),
    );
    expect(insights.sessions.count).toBe(1);
  });

  it("gives insights figures per person and machine: an admin's are each person's own report and add up to the whole, without private titles", async () => {
    // Cy's second session, at another hour, pushed from a laptop: a tool call that failed, and a response without usage.
    const at = "2026-11-22T15:30:00.000Z";
    const laptop = documentOf("cy's laptop session", "dirigible");
    const thread = laptop.document.threads[0]!;
    const turn = (index: number, role: string, content: string, more: object) =>
      ({ id: randomUUID(), index, role, content, timestamp: at, files: [], images: [], ...more }) as (typeof thread.turns)[number];
    const turns = thread.turns.map((t) => ({ ...t, timestamp: at, content: t.role === "assistant" ? "no secret here" : t.content }));
    turns.push(
      turn(2, "assistant", "", {
        modelProvider: "anthropic",
        modelName: "claude-sonnet-4-20250514",
        parts: [{ type: "tool_call", id: "call-1", name: "Bash", arguments: { command: "ls" } }],
      }),
      turn(3, "tool", "no such file", { parts: [{ type: "tool_result", toolCallId: "call-1", content: "no such file", isError: true }] }),
    );
    await importAs("cy", { ...laptop.document, threads: [{ ...thread, createdAt: at, lastUpdatedAt: at, turns }] });
    await (await db()).thread.update({ where: { id: laptop.id }, data: { machine: "cy-laptop" } });
    const range = "/api/insights?since=2026-11-01&until=2026-11-30&tz=UTC";
    const answer = await insightsRoute(request("GET", range, "admin"));
    const text = await answer.clone().text();
    const admin = await ok<InsightsReport>(answer);
    const bob = await ok<InsightsReport>(await insightsRoute(request("GET", range, "bob")));
    const cy = await ok<InsightsReport>(await insightsRoute(request("GET", range, "cy")));
    const sum = <T>(rows: T[], figure: (row: T) => number) => rows.reduce((n, row) => n + figure(row), 0);
    const cents = (usd: number) => Math.round(usd * 1e8) / 1e8;
    // What a whole report counts, as a row of By person counts it.
    const totalsOf = (report: InsightsReport): TeamFigures => ({
      sessions: report.sessions.count,
      activeHours: report.activity.filter((cell) => cell.turns > 0).length,
      turns: sum(report.activity, (cell) => cell.turns),
      responses: sum(report.activity, (cell) => cell.responses),
      costUsd: sum(report.models, (model) => model.costUsd),
      unpricedResponses: sum(report.models, (model) => model.unpricedResponses),
      inputTokens: sum(report.models, (model) => model.inputTokens),
      outputTokens: sum(report.models, (model) => model.outputTokens),
      cacheReadTokens: sum(report.models, (model) => model.cacheReadTokens),
      cacheWriteTokens: sum(report.models, (model) => model.cacheWriteTokens),
      toolCalls: sum(report.tools, (tool) => tool.calls),
      toolErrors: sum(report.tools, (tool) => tool.errors),
    });
    const fields = Object.keys(totalsOf(admin)) as (keyof TeamFigures)[];
    const summed = (rows: TeamFigures[]) => Object.fromEntries(fields.map((field) => [field, cents(sum(rows, (row) => row[field]))]));

    // Each person's row is their own report's figures (all three are private still); together the admin's whole.
    const people = admin.people!;
    const users = await (await db()).user.findMany({ select: { id: true, name: true } });
    const adminName = users.find((u) => !["bob", "cy", "vi"].includes(u.name))!.name;
    expect(new Set(people.map((row) => row.name))).toEqual(new Set(["bob", "cy", adminName]));
    expect(summed([people.find((row) => row.name === "bob")!])).toEqual(summed([totalsOf(bob)]));
    expect(summed([people.find((row) => row.name === "cy")!])).toEqual(summed([totalsOf(cy)]));
    expect(totalsOf(cy)).toMatchObject({ sessions: 2, activeHours: 2, turns: 6, toolCalls: 1, toolErrors: 1 });
    const { activeHours, ...whole } = summed([totalsOf(admin)]);
    expect(summed(people)).toEqual({ ...whole, activeHours: 4 });
    expect(activeHours).toBe(2); // two people's hours overlap: active hours do not add up
    // By person names, orders and sums people as /usage does.
    const usageRows = (await usageOf("admin", "&groupBy=person")).rows as unknown as (TeamFigures & { key: string; title: string })[];
    const usageLike = (row: TeamFigures, id: string, name: string) => [id, name, row.responses, cents(row.costUsd)];
    expect(people.map((row) => usageLike(row, row.id, row.name))).toEqual(usageRows.map((row) => usageLike(row, row.key, row.title)));
    // Machines: the laptop's one thread, and the rest not pushed.
    expect(admin.machines!.map((row) => row.machine)).toEqual((await usageOf("admin", "&groupBy=machine")).rows.map((row) => row.key));
    expect(admin.machines!.find((row) => row.machine === "cy-laptop")).toMatchObject({ sessions: 1, turns: 4, toolCalls: 1 });
    expect(summed(admin.machines!)).toMatchObject(whole);
    // Figures, never others' private titles or text; the admin's own thread keeps its title.
    for (const title of ["bob's private plans", "cy's private plans", "cy's laptop session", "dirigible"])
      expect(text).not.toContain(title);
    expect(text).toContain("made before sign-in");
    expect(admin.sessions.longest.find((session) => session.threadId === bobs)).toMatchObject({ title: null, private: true });
    expect(admin.sessions.longest.find((session) => session.threadId === unowned)).not.toHaveProperty("private");
    // A member's report: only what they may read, so only their own figures.
    expect(bob.people!.map((row) => row.name)).toEqual(["bob"]);
    expect(bob.machines!.map((row) => row.machine)).toEqual([""]);
  });

  it("lists secrets found only in threads a person may read", async () => {
    await scanForSecrets();
    const findings = async (who: Person) =>
      (await ok<{ findings: { threadId: string; threadTitle: string | null }[] }>(await secretsRoute(request("GET", "/api/secrets", who))))
        .findings;
    expect(new Set((await findings("bob")).map((f) => f.threadId))).toEqual(new Set([bobs]));
    const admin = await findings("admin");
    expect(new Set(admin.map((f) => f.threadId))).toEqual(new Set([bobs, cys, unowned]));
    expect(admin.find((f) => f.threadId === cys)!.threadTitle).toBeNull();
  });

  it("keeps MCP to what its caller may read", async () => {
    const token = (await ok<{ token: string }>(await tokenRoute(request("POST", "/api/tokens", "bob", { name: "agent" })), 201)).token;
    const call = async (name: string, args: object) => {
      const response = await mcpRoute(
        new Request(`${ORIGIN}/api/mcp`, {
          method: "POST",
          headers: {
            host: "127.0.0.1:3000",
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
        }),
      );
      return ((await response.json()) as { result: { content: { text: string }[]; isError?: boolean } }).result;
    };
    const listed = await call("list_threads", {});
    expect(JSON.parse(listed.content[0]!.text).items.map((t: { id: string }) => t.id)).toEqual([bobs]);
    const other = await call("get_thread", { threadId: cys });
    expect(other.isError).toBe(true);
    expect(other.content[0]!.text).toContain("not found");
  });

  it("shares a thread with the team: others read it, but only its owner or an admin changes it", async () => {
    // Bob may not share Cy's thread (it is not found, for him); Cy may.
    await expectError(
      (await refusedByProxy(request("PUT", `/api/threads/${cys}/visibility`, "bob", { visibility: "team" })))!,
      404,
      "not_found",
    );
    expect(await refusedByProxy(request("PUT", `/api/threads/${cys}/visibility`, "cy", { visibility: "team" }))).toBeNull();
    await ok(
      await threadVisibilityRoute(request("PUT", `/api/threads/${cys}/visibility`, "cy", { visibility: "team" }), params({ id: cys })),
    );
    expect(await listIds("bob")).toEqual(expect.arrayContaining([bobs, cys]));
    expect(await listIds("vi")).toEqual([cys]);
    expect(await searchIds("bob", "zeppelin")).toEqual(expect.arrayContaining([bobs, cys]));
    expect(await refusedByProxy(request("GET", `/api/threads/${cys}/turns`, "bob"))).toBeNull();
    // Reading is not changing: appending, sharing or purging another's thread is refused.
    for (const [method, path, body] of [
      ["POST", `/api/threads/${cys}/turns`, { role: "user", content: "mine now?" }],
      ["PUT", `/api/threads/${cys}/visibility`, { visibility: "private" }],
      ["DELETE", `/api/threads/${cys}`, undefined],
    ] as const)
      await expectError((await refusedByProxy(request(method, path, "bob", body)))!, 403, "forbidden");
    // A fork is the forker's own thread.
    expect(await refusedByProxy(request("POST", `/api/threads/${cys}/forks`, "bob", { atTurn: 0 }))).toBeNull();
    // An admin may change anyone's.
    expect(await refusedByProxy(request("PUT", `/api/threads/${bobs}/visibility`, "admin", { visibility: "private" }))).toBeNull();
  });

  it("lets a viewer read what is shared and write nothing", async () => {
    for (const [method, path, body] of [
      ["POST", "/api/threads", { toolName: "chat" }],
      ["POST", "/api/import", {}],
      ["POST", `/api/threads/${cys}/forks`, { atTurn: 0 }],
    ] as const)
      await expectError((await refusedByProxy(request(method, path, "vi", body)))!, 403, "forbidden");
    expect(await refusedByProxy(request("GET", `/api/threads/${cys}`, "vi"))).toBeNull();
    await expectError((await refusedByProxy(request("GET", `/api/threads/${bobs}`, "vi")))!, 404, "not_found");
  });

  it("shares a whole project: the owner's threads in it now, and those added to it later", async () => {
    const shared = await ok<{ threadsChanged: number }>(
      await projectVisibilityRoute(request("PUT", "/api/visibility/projects", "bob", { project: "/work/bob-project", visibility: "team" })),
    );
    expect(shared.threadsChanged).toBe(1);
    expect(await listIds("cy")).toContain(bobs);
    const later = documentOf("bob's next session", "airship", "/work/bob-project");
    const elsewhere = documentOf("bob's other project", "airship", "/work/other");
    await importAs("bob", later.document);
    await importAs("bob", elsewhere.document);
    const seen = await listIds("cy", "?q=airship");
    expect(seen).toContain(later.id);
    expect(seen).not.toContain(elsewhere.id);
  });

  it("creates threads through the API as their creator's, and refuses a parent the creator may not read", async () => {
    const made = await ok<{ thread: { id: string; ownerId: string; visibility: string } }>(
      await createRoute(request("POST", "/api/threads", "cy", { toolName: "chat", title: "cy's new" })),
      201,
    );
    expect(made.thread.visibility).toBe("private");
    expect(await listIds("bob")).not.toContain(made.thread.id);
    const child = await createRoute(request("POST", "/api/threads", "bob", { toolName: "chat", parentThreadId: made.thread.id }));
    await expectError(child, 400, "validation_failed");
  });

  it("refuses an import that would change another person's thread, and leaves it as it was", async () => {
    const sessionId = randomUUID();
    const line = (n: number, role: "user" | "assistant") =>
      JSON.stringify({
        type: role,
        sessionId,
        uuid: `00000000-0000-4000-8000-00000000000${n}`,
        parentUuid: n === 1 ? null : `00000000-0000-4000-8000-00000000000${n - 1}`,
        timestamp: `2026-11-21T10:0${n}:00.000Z`,
        cwd: "/work/shared-laptop",
        message:
          role === "user"
            ? { role, content: `question ${n}` }
            : { role, model: "claude-sonnet-4-20250514", content: [{ type: "text", text: `answer ${n}` }] },
      });
    const name = `?name=${sessionId}.jsonl`;
    const first = [line(1, "user"), line(2, "assistant")].join("\n") + "\n";
    await ok(await importRoute(request("POST", `/api/import${name}`, "bob", first)), 201);
    const grown = first + line(3, "user") + "\n";
    const refused = await importRoute(request("POST", `/api/import${name}`, "cy", grown));
    const body = await refused.json();
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(body)).toContain("belongs to another person");
    const stored = await (
      await db()
    ).thread.findMany({ where: { project: "/work/shared-laptop" }, select: { turnCount: true, ownerId: true } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.turnCount).toBe(2);
    // Its owner may grow it.
    await ok(await importRoute(request("POST", `/api/import${name}`, "bob", grown)), 201);
  });
});
