/**
 * No secret's value in any API answer (docs/security.md, "Secrets in transcripts"): a thread whose title,
 * initial context, turns, tool calls and results, file names and file snapshots hold real-looking
 * secrets (lib/domain/secrets/samples.ts), then every GET route found under app/api called with
 * that thread's id and each turn's index and id filled in, the MCP tools that read threads, and
 * replays of idempotent appends (REST and MCP). The only answers that carry values are listed in
 * EXCEPTIONS with the reason. A new route fails here until it masks (handleRoute does it for every
 * route that uses it) or is listed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { POST as startJob } from "@/app/api/threads/[id]/compaction-jobs/route";
import { POST as forkRoute } from "@/app/api/threads/[id]/forks/route";
import { POST as turnsPost } from "@/app/api/threads/[id]/turns/route";
import { fingerprintOf } from "@/lib/domain/secrets/detect";
import { privateKeyBlock, secretSamples } from "@/lib/domain/testing/secret-samples";
import { scanForSecrets } from "@/lib/secrets/scan";
import { BASE, json, jsonRequest, params } from "@/lib/testing/api";
import { bodyText, paramSets, routeFiles, routeHandlers, SAMPLE_QUERIES, urlOf } from "@/lib/testing/api-routes";
import { newThread, newTurn, sleep } from "@/lib/testing/integration";

const samples = secretSamples(17);
const value = (kind: string, n = 0) => samples.filter((s) => s.kind === kind)[n]!.value;
const key = privateKeyBlock(23);
/** Every value planted, raw and as JSON writes it (a private key's line breaks as \n). */
const SECRETS = [...samples.map((s) => s.value), key];
const FORMS = SECRETS.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);

/**
 * Answers that carry values on purpose, by route (relative to app/api) and query. Each is also
 * checked to carry them, so the list cannot go stale.
 */
const EXCEPTIONS: Record<string, string> = {
  "threads/[id]/export": "the lossless export (json without ?redact=1, html or md with ?redact=0) is a backup: secrets as stored",
};

/** Route files that do not answer through handleRoute (which masks), and what they do instead. */
const NOT_THROUGH_HANDLE_ROUTE: Record<string, string> = {
  mcp: "masks the JSON-RPC answer with maskResponse, and each tool's answer",
  "auth/[...all]": "Better Auth's own answers: sessions and people, no transcript text",
  "[...path]": "answers 404 to any path no route handles",
};

/** Routes that answer something other than 200 here, and why (anything else must answer 200). */
const STATUS: Record<string, number> = {
  "[...path]": 404, // no such endpoint
  "auth/[...all]": 404, // sign-in is off
  mcp: 405, // POST only; its tools are called below
  tokens: 409, // API tokens need sign-in
  visibility: 409, // a person's visibility needs sign-in
  push: 409, // pushing needs sign-in
};

let threadId: string;
let parentId: string;
let turns: { id: string; index: number }[];
let jobId: string;

/** The texts a value may not be in: fails naming the route and the kind. */
function expectNoSecret(where: string, text: string): void {
  for (const [i, form] of FORMS.entries()) {
    const what = i / 2 < samples.length ? samples[Math.floor(i / 2)]!.rule : "private-key";
    expect(text.includes(form), `${where} answers the ${what} sample`).toBe(false);
  }
}

beforeAll(async () => {
  const parent = await newThread({ toolName: "claude-code", title: `Setup with ${value("github-token")}` });
  parentId = parent.id;
  await newTurn(parentId, { role: "user", content: `Use ${value("openai-key")} for the summaries` });
  const thread = await newThread({
    toolName: "claude-code",
    title: `Deploy ${value("github-token", 1)} to prod`,
    parentThreadId: parentId,
    initialContext: { env: `SLACK_BOT=${value("slack-token")}`, files: [`/srv/${value("npm-token")}.env`] },
  });
  threadId = thread.id;
  const secretPath = `/home/ada/.config/${value("github-token", 2)}/hosts.yml`;
  for (const [i, sample] of samples.entries()) {
    await newTurn(threadId, {
      role: i % 2 === 0 ? "user" : "assistant",
      content: `step ${i}: export things\n${sample.line(sample.value)}`,
    });
  }
  await newTurn(threadId, {
    role: "user",
    content: "Read the config and deploy",
    files: [secretPath, `/tmp/${value("stripe-key")}.json`],
    fileSnapshots: [{ path: secretPath, content: `oauth_token: ${value("github-token", 2)}\n${key}\n` }],
  });
  await newTurn(threadId, {
    role: "assistant",
    content: "Running the deploy",
    toolName: "Bash",
    parts: [
      { type: "text", text: `Deploying with ${value("anthropic-key")}` },
      {
        type: "tool_call",
        id: "call_1",
        name: "Bash",
        arguments: {
          command: `curl -H "Authorization: Bearer ${value("jwt")}" https://api.example.com`,
          env: { TOKEN: value("huggingface-token") },
        },
      },
      {
        type: "tool_result",
        toolCallId: "call_1",
        content: [{ type: "text", text: `DATABASE_URL=postgresql://app:${value("database-password")}@db:5432/app\n${key}` }],
      },
      { type: "thinking", text: `The key ${value("aws-access-key")} is the deploy user's` },
    ],
  });
  turns = await listTurnRefs(threadId);
  const fork = await forkRoute(jsonRequest("POST", `/api/threads/${threadId}/forks`, { atTurn: 2 }), params({ id: threadId }));
  expect(fork.status, await fork.clone().text()).toBe(201);
  const job = await startJob(
    jsonRequest("POST", `/api/threads/${threadId}/compaction-jobs`, { strategy: "full" }),
    params({ id: threadId }),
  );
  expect(job.status, await job.clone().text()).toBe(202);
  jobId = (await json<{ job: { id: string } }>(job)).job.id;
  await waitForJob(jobId);
  await scanForSecrets();
}, 60_000);

async function listTurnRefs(id: string): Promise<{ id: string; index: number }[]> {
  const { GET } = (await import("@/app/api/threads/[id]/turns/route")) as {
    GET: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>;
  };
  return (
    await json<{ items: { id: string; index: number }[] }>(
      await GET(jsonRequest("GET", `/api/threads/${id}/turns?limit=100`), params({ id })),
    )
  ).items;
}

async function waitForJob(id: string): Promise<void> {
  const { GET } = await import("@/app/api/compaction-jobs/[jobId]/route");
  for (let i = 0; i < 200; i++) {
    const { job } = await json<{ job: { status: string } }>(
      await GET(jsonRequest("GET", `/api/compaction-jobs/${id}`), params({ jobId: id })),
    );
    if (job.status !== "running") {
      expect(job.status).toBe("succeeded");
      return;
    }
    await sleep(50);
  }
  throw new Error("the compaction job did not finish");
}

/** The values a route's dynamic segments are filled with: the thread, each turn by index and by id, the job. */
function sampleValues(name: string): (string | string[])[] {
  if (name === "id") return [threadId];
  if (name === "index") return turns.flatMap((t) => [String(t.index), t.id]);
  if (name === "jobId") return [jobId];
  if (name === "path") return [["no-such-endpoint"]];
  if (name === "all") return [["get-session"]];
  return [];
}

async function mcp(method: string, args: object): Promise<string> {
  const response = await mcpPost(
    new Request(`${BASE}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: args }),
    }),
  );
  expect(response.status).toBe(200);
  return response.text();
}

describe("no secret in any API answer", () => {
  const files = routeFiles();

  it("finds the thread's secrets in the first place (the samples are detected)", async () => {
    const { GET } = await import("@/app/api/secrets/route");
    const body = await json<{ findings: { fingerprint: string; field: string }[] }>(
      await GET(jsonRequest("GET", `/api/secrets?threadId=${threadId}&limit=500`)),
    );
    const found = new Set(body.findings.map((f) => f.fingerprint));
    for (const secret of SECRETS) expect(found.has(fingerprintOf(secret)), secret.slice(0, 12)).toBe(true);
    // The scan reads content, parts and file snapshots.
    expect(new Set(body.findings.map((f) => f.field.replace(/:\d+$/, "")))).toEqual(new Set(["content", "parts", "snapshot"]));
  });

  it("every route file answers through handleRoute, or is listed with what it does instead", () => {
    for (const { route, source } of files) {
      if (route in NOT_THROUGH_HANDLE_ROUTE) continue;
      const handlers = [...source.matchAll(/export async function (GET|POST|PUT|PATCH|DELETE)\b/g)].length;
      const wrapped = [...source.matchAll(/return handleRoute\(/g)].length;
      expect(wrapped, `app/api/${route}/route.ts: every handler returns handleRoute(...) (it masks the answer)`).toBeGreaterThanOrEqual(
        handlers,
      );
      expect(handlers, `app/api/${route}/route.ts exports no handler this test recognises`).toBeGreaterThan(0);
    }
  });

  it("answers every GET route without a value, except the listed exceptions", async () => {
    let called = 0;
    for (const { route, file } of files) {
      const get = (await routeHandlers(file)).find(([method]) => method === "GET")?.[1];
      if (!get) continue;
      for (const set of paramSets(route, sampleValues)) {
        for (const query of SAMPLE_QUERIES[route] ?? [""]) {
          const url = urlOf(route, set) + query;
          const controller = new AbortController();
          const response = await get(new Request(`${BASE}${url}`, { signal: controller.signal }), { params: Promise.resolve(set) });
          const text = await bodyText(response);
          controller.abort();
          called += 1;
          expect(response.status, `GET ${url}: ${text.slice(0, 300)}`).toBe(STATUS[route] ?? 200);
          if (route in EXCEPTIONS && (/redact=0/.test(query) || !/redact=1|format=(html|md)/.test(query))) {
            // Listed: it must still carry them, or the exception is stale.
            expect(text, `GET ${url} is listed as carrying values`).toContain(value("github-token", 1));
            continue;
          }
          expectNoSecret(`GET ${url}`, text);
        }
      }
    }
    expect(called).toBeGreaterThan(30);
  }, 120_000);

  it("answers the MCP tools that read threads without a value", async () => {
    const listed = JSON.parse(await mcp("tools/list", {})) as {
      result: { tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] };
    };
    const CALLS: Record<string, object[]> = {
      get_thread: [{ threadId }, { threadId: parentId }],
      list_threads: [{}, { q: "deploy" }],
      build_history: [
        { threadId, model: "gpt-4o" },
        { threadId, model: "gpt-4o", mode: "pal" },
      ],
      export_thread: [{ threadId }, { threadId, chain: true }],
      get_handoff: [{ threadId }, { threadId, chain: true, model: "gpt-4o" }],
    };
    const readers = listed.result.tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readers.sort()).toEqual(Object.keys(CALLS).sort());
    for (const [name, calls] of Object.entries(CALLS)) {
      for (const args of calls) {
        const text = await mcp("tools/call", { name, arguments: args });
        expect(JSON.parse(text).result.isError, `${name}: ${text.slice(0, 300)}`).toBeFalsy();
        expectNoSecret(`MCP ${name} ${JSON.stringify(args)}`, text);
      }
    }
  });

  it("replays an idempotent append masked, through REST and MCP", async () => {
    const content = `Here: ${value("sendgrid-key")}`;
    const append = () =>
      turnsPost(
        new Request(`${BASE}/api/threads/${threadId}/turns`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": "masking-replay-1" },
          body: JSON.stringify({ role: "user", content }),
        }),
        params({ id: threadId }),
      );
    const first = await append();
    expect(first.status).toBe(201);
    expectNoSecret("POST /turns", await first.text());
    const again = await append();
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    const replayed = await again.text();
    expectNoSecret("POST /turns, replayed", replayed);
    expect(replayed).toContain(`…${fingerprintOf(value("sendgrid-key")).slice(-4)}]`);

    const args = { threadId, idempotencyKey: "masking-replay-2", role: "assistant", content: `And ${value("google-api-key")}` };
    for (const attempt of ["first", "replayed"]) {
      const text = await mcp("tools/call", { name: "add_turn", arguments: args });
      expect(JSON.parse(text).result.isError, text.slice(0, 300)).toBeFalsy();
      expectNoSecret(`MCP add_turn, ${attempt}`, text);
    }
  });
});
