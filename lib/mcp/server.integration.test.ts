/**
 * MCP round trips with the SDK's own client, connected in-process to the /api/mcp route handlers
 * (a fetch that hands each Request to the route), on the test file's real SQLite database.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DELETE, GET, POST } from "@/app/api/mcp/route";
import { POST as turnsPost } from "@/app/api/threads/[id]/turns/route";
import { BASE, json, params } from "@/lib/testing/api";
import { api, restoreServerEnv, rowCounts, setServerEnv } from "@/lib/testing/integration";

const ROUTES: Record<string, (request: Request) => Promise<Response> | Response> = { POST, GET, DELETE };

async function routeFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  const handler = ROUTES[request.method];
  return handler ? handler(request) : new Response(null, { status: 405 });
}

let client: Client;

beforeEach(async () => {
  client = new Client({ name: "threadline-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/api/mcp`), { fetch: routeFetch }));
});

afterEach(async () => {
  await client.close();
  restoreServerEnv();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The JSON a successful call answered (its text, checked against its structured content). */
async function ok<T = any>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(name, args);
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  expect(result.isError, text).toBeFalsy();
  const value = JSON.parse(text) as T;
  expect(result.structuredContent).toEqual(value);
  return value;
}

/** The message of a call that must fail as a tool error. */
async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  return result.content[0]?.type === "text" ? result.content[0].text : "";
}

describe("MCP server at /api/mcp", () => {
  it("lists the eight tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "add_turn",
      "build_history",
      "create_thread",
      "export_thread",
      "fork_thread",
      "get_handoff",
      "get_thread",
      "list_threads",
    ]);
    const addTurn = tools.find((tool) => tool.name === "add_turn")!;
    expect(addTurn.inputSchema.required).toEqual(expect.arrayContaining(["threadId", "role", "content"]));
    expect(addTurn.inputSchema.properties?.role).toMatchObject({ enum: ["user", "assistant", "system", "tool"] });
  });

  it("get_handoff answers what GET /handoff answers: the orchestrator's conversation history, by thread id", async () => {
    const { thread: first } = await ok("create_thread", { toolName: "analyze" });
    await ok("add_turn", { threadId: first.id, role: "user", content: "q".repeat(151) });
    await ok("add_turn", { threadId: first.id, role: "tool", content: "ran" });
    const { thread: second } = await ok("create_thread", { toolName: "review", parentThreadId: first.id });
    await ok("add_turn", { threadId: second.id, role: "assistant", content: "Done." });

    const alone = await ok("get_handoff", { threadId: second.id, format: "orchestrator" });
    expect(alone.text).toBe("\n💬 CONVERSATION HISTORY (Context leading to this task):\n1. 🤖 ASSISTANT:\n   Done.\n\n");
    const chain = await ok("get_handoff", { threadId: second.id, chain: true, from: 1, to: 3, model: null });
    expect(chain).toMatchObject({ conversationMessagesCount: 2, range: { from: 1, to: 3, total: 3 }, cut: { messages: 1, characters: 1 } });
    expect(chain.messages[0]).toEqual({ role: "user", content: `${"q".repeat(150)}... [truncated]`, truncated: true });
    expect(chain.skipped).toEqual([
      {
        index: 1,
        reason: "conversation_history[1] has invalid role 'tool', skipping",
        cause: { kind: "role", role: "tool" },
        threadId: first.id,
        turnIndex: 1,
      },
    ]);
    expect(chain.text).toBe(
      `\n💬 CONVERSATION HISTORY (Context leading to this task):\n1. 👤 USER [TRUNCATED]:\n   ${"q".repeat(150)}... [truncated]\n\n2. 🤖 ASSISTANT:\n   Done.\n\n`,
    );

    expect(await toolError("get_handoff", { threadId: second.id, format: "pal" })).toMatch(/format/);
    expect(await toolError("get_handoff", { threadId: second.id, chain: true, from: 3, to: 2 })).toMatch(/to: must be at least from/);
  });

  it("creates a thread, adds turns, builds the history, forks and exports it", async () => {
    const { thread } = await ok("create_thread", { toolName: "analyze", title: "Session drops", initialContext: { repo: "auth" } });
    expect(thread).toMatchObject({ toolName: "analyze", title: "Session drops", source: "api", turnCount: 0 });

    const texts = ["Why do sessions drop after a refresh?", "The refresh token is never rotated.", "Rotate it in session.ts then."];
    for (const [i, content] of texts.entries()) {
      const { turn } = await ok("add_turn", {
        threadId: thread.id,
        role: i % 2 === 0 ? "user" : "assistant",
        content,
        files: i === 0 ? ["src/auth/session.ts"] : null,
        // A snapshot of the file as the turn saw it: build_history embeds it (no file is read).
        fileSnapshots: i === 0 ? [{ path: "src/auth/session.ts", content: "export const SNAPSHOT_MARKER = 1;" }] : null,
        toolName: "analyze",
        ...(i % 2 === 1 ? { modelProvider: "openai", modelName: "gpt-4o" } : {}),
      });
      expect(turn).toMatchObject({ threadId: thread.id, index: i, content });
    }

    const got = await ok("get_thread", { threadId: thread.id.toUpperCase() });
    expect(got.thread).toMatchObject({ id: thread.id, turnCount: 3, modelsUsed: ["gpt-4o"] });
    expect(got.turns.map((t: { content: string }) => t.content)).toEqual(texts);

    const history = await ok("build_history", { threadId: thread.id, model: "gpt-4o" });
    for (const text of texts) expect(history.history).toContain(text);
    expect(history.history).toContain("export const SNAPSHOT_MARKER = 1;");
    expect(history.files.included).toEqual([expect.objectContaining({ path: "src/auth/session.ts", source: "snapshot" })]);
    expect(history).toMatchObject({
      mode: "exact",
      exact: true,
      model: { id: "gpt-4o" },
      turns: { total: 3, includedCount: 3, excludedCount: 0, firstIncluded: 1 },
    });
    expect(history.tokenizer.id).toBe("o200k_base");
    expect(history.totalTokens).toBeGreaterThan(0);

    const { thread: forked, fork } = await ok("fork_thread", { threadId: thread.id, atTurn: 1 });
    expect(forked).toMatchObject({ title: "Session drops (fork)", source: "fork", turnCount: 2 });
    expect(fork).toMatchObject({ sourceThreadId: thread.id, forkThreadId: forked.id, atTurn: 1 });

    const page = await ok("list_threads", { q: "rotated", limit: 10 });
    expect(page.items.map((t: { id: string }) => t.id).sort()).toEqual([thread.id, forked.id].sort());

    const document = await ok("export_thread", { threadId: thread.id });
    expect(document.format).toBe("threadline/v1");
    expect(document.threads).toHaveLength(1);
    expect(document.threads[0]).toMatchObject({ id: thread.id, title: "Session drops" });
    expect(document.threads[0].turns.map((t: { content: string }) => t.content)).toEqual(texts);
  });

  it("answers bad input and unknown threads as tool errors that name the field or reason", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await toolError("add_turn", { threadId: unknown, role: "user", content: "hi" })).toMatch(/not found/);
    expect(await toolError("build_history", { threadId: unknown })).toMatch(/model.*contextWindow/);
    expect(await toolError("get_thread", { threadId: "not-a-uuid" })).toMatch(/threadId/);
    expect(await toolError("get_thread", { threadId: "not-a-uuid" })).toMatch(/must be a UUID/);

    const { thread } = await ok("create_thread", { toolName: "chat" });
    expect(await toolError("add_turn", { threadId: thread.id, role: "robot", content: "hi" })).toMatch(/role/);
    expect(await toolError("create_thread", { toolName: "chat", parentThreadId: unknown })).toBe("parentThreadId: no thread with this id");
    expect(await toolError("create_thread", { toolName: "chat", colour: "red" })).toMatch(/colour/);
    expect(await toolError("fork_thread", { threadId: thread.id, atTurn: 0 })).toMatch(/^atTurn: .* has 0 turns/);
    expect(await toolError("build_history", { threadId: thread.id, model: "gpt-17" })).toMatch(/unknown model "gpt-17"/);
  });
});

describe("numbers in tool arguments", () => {
  it("refuses fractions and numbers out of range, naming the argument and the bound", async () => {
    const { thread } = await ok("create_thread", { toolName: "chat" });
    await ok("add_turn", { threadId: thread.id, role: "user", content: "hi" });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["fork_thread", { threadId: thread.id, atTurn: 0.5 }, /: must be a whole number at atTurn\b/],
      ["fork_thread", { threadId: thread.id, atTurn: -1 }, /: must be at least 0 at atTurn\b/],
      ["fork_thread", { threadId: thread.id, atTurn: 1e20 }, /: must be at most 2147483647 at atTurn\b/],
      ["list_threads", { limit: 2.5 }, /: must be a whole number at limit\b/],
      ["list_threads", { limit: 101 }, /: must be at most 100 at limit\b/],
      ["build_history", { threadId: thread.id, contextWindow: 128_000.5 }, /: must be a whole number at contextWindow\b/],
      ["build_history", { threadId: thread.id, contextWindow: 999 }, /: must be at least 1000 at contextWindow\b/],
      ["get_handoff", { threadId: thread.id, from: 1.5 }, /: must be a whole number at from\b/],
      ["get_handoff", { threadId: thread.id, to: 0 }, /: must be at least 1 at to\b/],
      ["get_handoff", { threadId: thread.id, to: 2 ** 31 }, /: must be at most 2147483647 at to\b/],
      ["get_handoff", { threadId: thread.id, from: "1" }, /: must be a number at from\b/],
    ];
    for (const [name, args, message] of cases) expect(await toolError(name, args), `${name} ${JSON.stringify(args)}`).toMatch(message);
    expect((await ok("get_handoff", { threadId: thread.id, from: 1, to: 1 })).range).toEqual({ from: 1, to: 1, total: 1 });
  });
});

describe("unknown thread ids", () => {
  /** The least each tool needs besides the thread id to get as far as looking the thread up. */
  const ARGS: Record<string, Record<string, unknown>> = {
    add_turn: { role: "user", content: "hi" },
    build_history: { contextWindow: 100_000 },
    fork_thread: { atTurn: 0 },
    get_thread: {},
    export_thread: {},
    get_handoff: {},
  };

  it("answer every tool that takes one as PAL does, naming CONVERSATION_TIMEOUT_HOURS' value", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "9" });
    const { tools } = await client.listTools();
    const taking = tools
      .filter((tool) => tool.inputSchema.properties && "threadId" in tool.inputSchema.properties)
      .map((tool) => tool.name);
    expect(taking.sort()).toEqual(Object.keys(ARGS).sort());
    const unknown = crypto.randomUUID();
    const before = await rowCounts();
    for (const name of taking) {
      const result = await call(name, { threadId: unknown, ...ARGS[name] });
      const message = `Thread ${unknown} not found or may have expired: threads expire after 9 hours without activity (CONVERSATION_TIMEOUT_HOURS).`;
      expect(result.isError, name).toBe(true);
      expect(result.content, name).toEqual([{ type: "text", text: message }]);
      expect(result.structuredContent, name).toEqual({ error: { code: "not_found", message } });
    }
    expect(await rowCounts()).toEqual(before);
  });
});

describe("idempotencyKey on the MCP writes", () => {
  it("answers a retried add_turn or fork_thread with the first result and writes once, in the store REST's header uses", async () => {
    const { thread } = await ok("create_thread", { toolName: "agent" });
    const args = { threadId: thread.id, role: "user", content: "Write this once.", idempotencyKey: "mcp-retry" };
    const first = await ok("add_turn", args);
    expect(await ok("add_turn", args)).toEqual(first);
    expect((await ok("get_thread", { threadId: thread.id })).turns).toHaveLength(1);
    expect(await toolError("add_turn", { ...args, content: "Something else." })).toMatch(
      /idempotency-key "mcp-retry" was already used in this thread for a different request/i,
    );
    expect(await toolError("add_turn", { ...args, idempotencyKey: "" })).toBe("idempotencyKey: must not be empty");
    expect(await toolError("add_turn", { ...args, idempotencyKey: "x".repeat(256) })).toBe(
      "idempotencyKey: must be at most 255 characters",
    );

    // The same key and turn through REST's header: the same turn, not a second one.
    const rest = await turnsPost(
      new Request(`${BASE}/api/threads/${thread.id}/turns`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "mcp-retry" },
        body: JSON.stringify({ role: "user", content: "Write this once." }),
      }),
      params({ id: thread.id }),
    );
    expect(rest.status).toBe(201);
    expect((await json(rest)).turn).toEqual(first.turn);

    const before = await rowCounts();
    const fork = await ok("fork_thread", { threadId: thread.id, atTurn: 0, idempotencyKey: "mcp-fork" });
    expect(await ok("fork_thread", { threadId: thread.id, atTurn: 0, idempotencyKey: "mcp-fork" })).toEqual(fork);
    expect(await rowCounts()).toEqual({ threads: before.threads + 1, turns: before.turns + 1 });
  });
});

describe("the /api/mcp route", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    POST(
      new Request(`${BASE}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
      }),
    );

  // Foreign hosts and browser origins are refused before this handler, by proxy.ts (e2e/hostile-site.spec.ts).
  it("answers GET and DELETE 405 (stateless) and bad JSON 400, as JSON-RPC errors", async () => {
    for (const method of [GET, DELETE]) {
      const response = await method();
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
    const bad = await post("{nope");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700, message: expect.stringContaining("not valid JSON") } });

    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const local = await post(ping);
    expect(local.status).toBe(200);
    expect(await local.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it('refuses a "__proto__" key anywhere in tool arguments as REST does (the SDK would drop it), and writes nothing', async () => {
    const before = await rowCounts();
    const callWith = (id: number, args: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"create_thread","arguments":${args}}}`;
    for (const args of [
      '{"toolName":"chat","__proto__":{"admin":true}}',
      '{"toolName":"chat","initialContext":{"repo":"auth","__proto__":{"admin":true}}}',
    ]) {
      const rest = (await json(await api.createThread(args))).error;
      expect(rest.message).toMatch(/"__proto__" is not allowed as a key/);
      const response = await post(callWith(7, args));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: 7,
        result: { content: [{ type: "text", text: rest.message }], structuredContent: { error: rest }, isError: true },
      });
    }
    // In a batch, the batch is refused as invalid params.
    const batch = await post(`[${callWith(1, '{"toolName":"chat"}')},${callWith(2, '{"toolName":"chat","__proto__":{}}')}]`);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32602, message: expect.stringContaining('"__proto__" is not allowed as a key') },
    });
    expect(await rowCounts()).toEqual(before);
  });
});
