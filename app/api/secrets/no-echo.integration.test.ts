/**
 * Errors name a caller's value without repeating it (docs/api.md): every route found under
 * app/api, every method it exports, called with a real-looking secret (lib/domain/secrets/samples.ts)
 * in each path segment, each query parameter it reads, each field of its JSON body (and as an
 * unknown field or parameter, and as the whole body), and every MCP tool with one in each argument.
 * No answer may hold any 8 characters of the secret: a message that cuts a value before masking it
 * (`Turn "ghp_0123456789abcdef"`) passes the answer's masking, since half a token is no token.
 *
 * The query parameters a route reads are learnt as it runs: readQuery (the one way routes read
 * them) is wrapped here to note the keys of each schema it is given.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { BASE, json, jsonRequest, params } from "@/lib/testing/api";
import {
  bodyText,
  isCatchAll,
  paramSets,
  routeFiles,
  routeHandlers,
  SAMPLE_QUERIES,
  sampleWrites,
  segmentNames,
  urlOf,
  WRITES_WITHOUT_FIELDS,
  type HttpMethod,
  type RouteHandler,
  type RouteParams,
} from "@/lib/testing/api-routes";
import { newThread, newTurn, sleep } from "@/lib/testing/integration";

const read = vi.hoisted(() => ({ keys: new Map<string, Set<string>>(), current: "" }));

vi.mock("@/lib/http/responses", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/http/responses")>();
  /** The keys of the object a query schema reads (through refinements and transforms). */
  const keysOf = (schema: unknown): string[] => {
    const def = (schema as { _zod: { def: { type: string; in?: unknown; shape?: Record<string, unknown> } } })._zod.def;
    if (def.type === "pipe") return keysOf(def.in);
    return def.type === "object" ? Object.keys(def.shape!) : [];
  };
  return {
    ...actual,
    readQuery: (request: Request, schema: Parameters<typeof actual.readQuery>[1]) => {
      const seen = read.keys.get(read.current) ?? new Set<string>();
      for (const key of keysOf(schema)) seen.add(key);
      read.keys.set(read.current, seen);
      return actual.readQuery(request, schema);
    },
  };
});

/** Secrets the detector knows on their own (a generic 40-character string is a secret only where it is assigned). */
const SECRETS = ["github-pat", "aws-access-token", "openai-api-key", "jwt"].map(
  (rule) => secretSamples(29).find((s) => s.rule === rule)!.value,
);
const PIECE = 8;

/** Where an answer held PIECE characters of a secret, and what it said: every one, not just the first. */
const leaks: string[] = [];

function expectNoPiece(where: string, text: string): void {
  for (const secret of SECRETS) {
    for (let i = 0; i + PIECE <= secret.length; i++) {
      const piece = secret.slice(i, i + PIECE);
      if (text.includes(piece)) {
        leaks.push(`${where} answers ${JSON.stringify(piece)}: ${text.slice(0, 300)}`);
        return;
      }
    }
  }
}

let readThread: string;
let writeThread: string;
let turnId: string;
let jobId: string;

beforeAll(async () => {
  // Reads and writes on threads of their own: the lossless export of the one read must hold no secret.
  readThread = (await newThread({ toolName: "chat", title: "Plain" })).id;
  turnId = (await newTurn(readThread, { role: "user", content: "hello" })).id;
  await newTurn(readThread, { role: "assistant", content: "hi" });
  writeThread = (await newThread({ toolName: "chat", title: "Written" })).id;
  await newTurn(writeThread, { role: "user", content: "hello" });
  await newTurn(writeThread, { role: "assistant", content: "hi" });
  const { POST } = await import("@/app/api/threads/[id]/compaction-jobs/route");
  const job = await POST(
    jsonRequest("POST", `/api/threads/${readThread}/compaction-jobs`, { strategy: "full" }),
    params({ id: readThread }),
  );
  expect(job.status, await job.clone().text()).toBe(202);
  jobId = (await json<{ job: { id: string } }>(job)).job.id;
  await settleJobs(readThread);
});

beforeEach(() => {
  leaks.length = 0;
});

afterAll(async () => {
  await settleJobs(writeThread);
});

/** Waits for the thread's compaction job (one a call may have started) to end. */
async function settleJobs(threadId: string): Promise<void> {
  const { GET } = await import("@/app/api/threads/[id]/compaction-jobs/route");
  for (let i = 0; i < 200; i++) {
    const { job } = await json<{ job: { status: string } | null }>(
      await GET(jsonRequest("GET", `/api/threads/${threadId}/compaction-jobs`), params({ id: threadId })),
    );
    if (job?.status !== "running") return;
    await sleep(50);
  }
  throw new Error("the compaction job did not end");
}

/** A route's valid segment values: reads on one thread, writes on the other. */
function validValue(method: HttpMethod, name: string): string | string[] {
  const values: Record<string, string | string[]> = {
    id: method === "GET" ? readThread : writeThread,
    index: "0",
    jobId,
    path: ["no-such-endpoint"],
    all: ["get-session"],
  };
  if (!(name in values)) throw new Error(`no sample value for [${name}]; add one to validValue`);
  return values[name]!;
}

type Call = { method: HttpMethod; url: string; set: RouteParams; body?: string };

async function send(handler: RouteHandler, call: Call): Promise<void> {
  const controller = new AbortController();
  const init: RequestInit = {
    method: call.method,
    signal: controller.signal,
    headers: call.body === undefined ? {} : { "content-type": "application/json" },
  };
  if (call.body !== undefined) init.body = call.body;
  const response = await handler(new Request(`${BASE}${call.url}`, init), { params: Promise.resolve(call.set) });
  const text = await bodyText(response);
  controller.abort();
  const where = `${call.method} ${call.url.slice(0, 120)}${call.body === undefined ? "" : ` ${call.body.slice(0, 120)}`}`;
  expectNoPiece(where, text);
  expectNoPiece(`${where} (headers)`, JSON.stringify([...response.headers]));
}

describe("errors name a caller's value without repeating it", () => {
  it("answers no piece of a secret sent in any segment, parameter or body field of any route", async () => {
    const writes = sampleWrites({ threadId: writeThread, turnId });
    let calls = 0;
    const routesReadingQueries = new Set<string>();
    for (const { route, file } of routeFiles()) {
      for (const [method, handler] of await routeHandlers(file)) {
        const name = `${method} ${route}`;
        read.current = name;
        const valid = paramSets(route, (segment) => [validValue(method, segment)])[0]!;
        const query = method === "GET" ? (SAMPLE_QUERIES[route]?.[0] ?? "") : (writes[name]?.query ?? "");
        const body = writes[name]?.body;
        if (method !== "GET" && method !== "DELETE" && body === undefined && !(name in WRITES_WITHOUT_FIELDS)) {
          throw new Error(`${name}: no sample request in lib/testing/api-routes.ts (sampleWrites, or WRITES_WITHOUT_FIELDS)`);
        }
        const json = body === undefined ? undefined : JSON.stringify(body);
        const run = async (call: Omit<Call, "method">) => {
          await send(handler, { method, ...call });
          calls += 1;
        };
        for (const secret of SECRETS) {
          for (const segment of segmentNames(route)) {
            const set = { ...valid, [segment]: isCatchAll(route, segment) ? [secret] : secret };
            await run({ url: urlOf(route, set) + query, set, body: json });
          }
          if (body !== undefined) {
            for (const field of Object.keys(body))
              await run({ url: urlOf(route, valid) + query, set: valid, body: JSON.stringify({ ...body, [field]: secret }) });
            await run({ url: urlOf(route, valid) + query, set: valid, body: JSON.stringify({ ...body, [secret]: 1 }) });
          }
          if (method !== "GET" && method !== "DELETE") await run({ url: urlOf(route, valid) + query, set: valid, body: secret });
          // Learnt from the calls above (GET's one with its sample query, writes' once their path and body get that far).
          if (method === "GET") await run({ url: urlOf(route, valid) + query, set: valid });
          const keys = [...(read.keys.get(name) ?? [])];
          if (keys.length > 0) routesReadingQueries.add(name);
          for (const key of keys) {
            const search = new URLSearchParams(query);
            search.set(key, secret);
            await run({ url: `${urlOf(route, valid)}?${search}`, set: valid, body: json });
          }
          if (keys.length > 0)
            await run({ url: `${urlOf(route, valid)}${query ? `${query}&` : "?"}${encodeURIComponent(secret)}=1`, set: valid, body: json });
        }
      }
    }
    expect(leaks).toEqual([]);
    // The probe's route, and the ones whose queries have numbers, were reached with their parameters.
    expect([...routesReadingQueries]).toEqual(
      expect.arrayContaining([
        "GET threads/[id]/turns/[index]",
        "GET threads/[id]/turns",
        "GET threads/[id]/handoff",
        "GET usage",
        "POST import",
      ]),
    );
    expect(calls).toBeGreaterThan(500);
  }, 300_000);

  it("answers no piece of a secret sent in any argument of any MCP tool", async () => {
    const listed = JSON.parse(await mcp("tools/list", {})) as {
      result: {
        tools: { name: string; inputSchema: { properties?: Record<string, unknown> }; annotations?: { readOnlyHint?: boolean } }[];
      };
    };
    const ARGS: Record<string, Record<string, unknown>> = {
      create_thread: { toolName: "chat" },
      add_turn: { role: "user", content: "hello" },
      get_thread: {},
      list_threads: {},
      build_history: { model: "gpt-4o" },
      get_handoff: {},
      fork_thread: { atTurn: 0 },
      export_thread: {},
    };
    let calls = 0;
    for (const tool of listed.result.tools) {
      const sample = ARGS[tool.name];
      if (!sample) throw new Error(`${tool.name}: no sample arguments; add them to ARGS`);
      const properties = Object.keys(tool.inputSchema.properties ?? {});
      const valid = properties.includes("threadId")
        ? { threadId: tool.annotations?.readOnlyHint ? readThread : writeThread, ...sample }
        : sample;
      for (const secret of SECRETS) {
        for (const args of [...properties.map((property) => ({ ...valid, [property]: secret })), { ...valid, [secret]: 1 }]) {
          expectNoPiece(
            `MCP ${tool.name} ${JSON.stringify(args).slice(0, 200)}`,
            await mcp("tools/call", { name: tool.name, arguments: args }),
          );
          calls += 1;
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(calls).toBeGreaterThan(100);
  }, 120_000);

  it("answers no piece of a secret sent as an MCP request that is not JSON", async () => {
    for (const secret of SECRETS) {
      const response = await mcpPost(
        new Request(`${BASE}/api/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: secret,
        }),
      );
      expect(response.status).toBe(400);
      expectNoPiece("MCP, a body that is not JSON", await response.text());
    }
    expect(leaks).toEqual([]);
  });
});

async function mcp(method: string, args: object): Promise<string> {
  const response = await mcpPost(
    new Request(`${BASE}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: args }),
    }),
  );
  return response.text();
}
