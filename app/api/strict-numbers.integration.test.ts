/**
 * Numbers in queries are plain decimal integers within their range, and every parameter is given
 * once (docs/api.md): hex, exponents, fractions, signs, spaces, empty values and repeated
 * parameters answer 400 validation_failed naming the parameter, on the real routes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportThread } from "@/app/api/threads/[id]/export/route";
import { GET as find } from "@/app/api/threads/[id]/find/route";
import { GET as handoff } from "@/app/api/threads/[id]/handoff/route";
import { GET as context } from "@/app/api/threads/[id]/context/route";
import { POST as compactions } from "@/app/api/threads/[id]/compactions/route";
import { POST as messages } from "@/app/api/threads/[id]/messages/route";
import { GET as turns } from "@/app/api/threads/[id]/turns/route";
import { GET as listThreads } from "@/app/api/threads/route";
import { GET as secrets } from "@/app/api/secrets/route";
import { GET as usage } from "@/app/api/usage/route";
import { POST as importRoute } from "@/app/api/import/route";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { expectError, newThread, newTurn } from "@/lib/testing/integration";

type ThreadRoute = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

let id: string;

beforeAll(async () => {
  id = (await newThread({ toolName: "chat" })).id;
  for (let i = 0; i < 20; i++) await newTurn(id, { role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i}` });
});

const onThread = (route: ThreadRoute, path: string, query: string) =>
  route(jsonRequest("GET", `/api/threads/${id}/${path}?${query}`), params({ id }));

const NOT_DECIMAL = "must be a whole number written in decimal digits";
const TWICE = "is given 2 times: give it once";

describe("numbers in queries", () => {
  it.each([
    ["turns", "from=0x10", "from", NOT_DECIMAL],
    ["turns", "from=1e1", "from", NOT_DECIMAL],
    ["turns", "limit=0x10", "limit", NOT_DECIMAL],
    ["turns", "limit=1.5", "limit", NOT_DECIMAL],
    ["turns", "limit=+5", "limit", NOT_DECIMAL],
    ["turns", "limit=%205", "limit", NOT_DECIMAL],
    ["turns", "limit=5%20", "limit", NOT_DECIMAL],
    ["turns", "limit=", "limit", NOT_DECIMAL],
    ["turns", "limit=05", "limit", "must be written without leading zeros (10, not 010)"],
    ["turns", "from=-1", "from", "must be at least 0"],
    ["turns", "limit=501", "limit", "must be at most 500"],
    ["turns", "from=2147483648", "from", "must be at most 2147483647"],
    ["handoff", "to=1e0", "to", NOT_DECIMAL],
    ["handoff", "from=0", "from", "must be at least 1"],
    ["find", "q=turn&limit=0x10", "limit", NOT_DECIMAL],
    ["context", "contextWindow=2e5", "contextWindow", NOT_DECIMAL],
    ["context", "contextWindow=200000&reserve=1.0", "reserve", NOT_DECIMAL],
  ] as const)("GET /api/threads/:id/%s?%s answers 400 naming %s", async (path, query, field, message) => {
    const route = { turns, handoff, find, context }[path] as ThreadRoute;
    const error = await expectError(await onThread(route, path, query), 400, "validation_failed");
    expect(error.message).toBe(`${field}: ${message}`);
    expect(error.details).toEqual([{ field, message }]);
  });

  it.each([
    ["threads", "limit=0x10", "limit"],
    ["threads", "limit=1e1", "limit"],
    ["secrets", "limit=0x10", "limit"],
    ["secrets", "cursor=1e3", "cursor"],
    ["usage", "limit=0x10", "limit"],
  ] as const)("GET /api/%s?%s answers 400 naming %s", async (path, query, field) => {
    const route = { threads: listThreads, secrets, usage }[path];
    const error = await expectError(await route(jsonRequest("GET", `/api/${path}?${query}`)), 400, "validation_failed");
    expect(error.message).toBe(`${field}: ${NOT_DECIMAL}`);
  });

  it("still reads plain decimal numbers, at the ends of their ranges", async () => {
    const page = await json<{ items: { index: number }[] }>(await onThread(turns, "turns", "from=0&limit=500"));
    expect(page.items.map((t) => t.index)).toEqual([...Array(20).keys()]);
    expect((await json<{ items: unknown[] }>(await onThread(turns, "turns", "from=19&limit=1"))).items).toHaveLength(1);
    const range = await json<{ range: unknown }>(await onThread(handoff, "handoff", "from=1&to=20"));
    expect(range.range).toEqual({ from: 1, to: 20, total: 20 });
  });
});

describe("a parameter given twice", () => {
  it.each([
    ["turns", "from=1&from=2", "from"],
    ["turns", "limit=5&limit=5", "limit"],
    ["turns", "includeExpired=1&includeExpired=0", "includeExpired"],
    ["handoff", "to=3&to=4", "to"],
    ["context", "model=gpt-4o&model=gpt-5", "model"],
    ["find", "q=turn&q=other", "q"],
    ["export", "redact=1&redact=0", "redact"],
  ] as const)("GET /api/threads/:id/%s?%s answers 400 naming %s", async (path, query, field) => {
    const route = { turns, handoff, context, find, export: exportThread }[path] as ThreadRoute;
    const error = await expectError(await onThread(route, path, query), 400, "validation_failed");
    expect(error.message).toBe(`${field}: ${TWICE}`);
  });

  it("is refused on the routes that take no number too, before anything is written", async () => {
    const listed = await expectError(await listThreads(jsonRequest("GET", "/api/threads?q=a&q=b")), 400, "validation_failed");
    expect(listed.message).toBe(`q: ${TWICE}`);
    const imported = await expectError(
      await importRoute(jsonRequest("POST", "/api/import?mode=copy&mode=copy", "[]")),
      400,
      "validation_failed",
    );
    expect(imported.message).toBe(`mode: ${TWICE}`);
    const sent = await expectError(
      await messages(jsonRequest("POST", `/api/threads/${id}/messages?stream=0&stream=1`, { content: "hi" }), params({ id })),
      400,
      "validation_failed",
    );
    expect(sent.message).toBe(`stream: ${TWICE}`);
    expect((await json<{ items: unknown[] }>(await onThread(turns, "turns", "limit=500"))).items).toHaveLength(20);
  });
});

describe("numbers in JSON bodies given as text", () => {
  it("are read as decimal digits only (a compaction's options)", async () => {
    const post = (options: object) =>
      compactions(jsonRequest("POST", `/api/threads/${id}/compactions`, { strategy: "window", options }), params({ id }));
    const error = await expectError(await post({ maxTurns: "0x10" }), 400, "validation_failed");
    expect(error.message).toBe(`options.maxTurns: ${NOT_DECIMAL}`);
    expect((await expectError(await post({ maxTurns: 2.5 }), 400, "validation_failed")).message).toBe(
      "options.maxTurns: must be a whole number",
    );
    for (const maxTurns of ["4", 4]) expect((await post({ maxTurns })).status).toBe(200);
  });
});
