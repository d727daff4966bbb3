/**
 * The summariser against a real HTTP server on 127.0.0.1 that speaks OpenAI's Chat Completions:
 * each test sets how it answers and reads back exactly what the SDK sent. No SDK mocks.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CompactionTurn } from "@/lib/domain/compaction/types";
import { saveLlmSettings } from "@/lib/db/settings/llm-settings";
import { answer, fail, startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from "@/lib/testing/fake-openai";
import { LLM_ENV } from "./config";
import { buildSummaryMessages, SUMMARIZE_PROMPT, SUMMARIZER_SYSTEM_PROMPT, summarizeWithLlm } from "./summarize";
import { LlmCallError } from "./provider";

const OPENAI_KEY = "sk-test-openai-9f8e7d6c5b4a";
const COMPATIBLE_KEY = "compat-secret-1a2b3c4d";

// The fake provider (lib/testing/fake-openai.ts)

let fake: FakeOpenAi;
/** The server's root; the tests add /v1 where a provider wants it. */
let baseUrl: string;
let requests: RecordedRequest[];

beforeAll(async () => {
  fake = await startFakeOpenAi();
  baseUrl = fake.baseUrl.replace(/\/v1$/, "");
  requests = fake.requests;
});

afterAll(() => fake.close());

// ------------------------------------------------------------------------------------------------
// Env: only what each test sets (a developer's own OPENAI_API_KEY must not leak into a test)

const saved = Object.fromEntries(Object.values(LLM_ENV).map((name) => [name, process.env[name]]));

function setEnv(values: Partial<Record<(typeof LLM_ENV)[keyof typeof LLM_ENV], string>>) {
  Object.assign(process.env, values);
}

beforeEach(async () => {
  for (const name of Object.values(LLM_ENV)) delete process.env[name];
  await saveLlmSettings({ compactionModel: null, openaiCompatibleBaseUrl: null, openaiCompatibleApiKey: null });
  requests.length = 0;
  fake.answerWith(answer("Summary: fixed the parser in src/parse.ts with Read and Edit."));
});

afterEach(() => {
  fake.dropConnections(); // a test that never answered leaves its request open
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

// ------------------------------------------------------------------------------------------------

const turn = (index: number, role: CompactionTurn["role"], content: string, extra: Partial<CompactionTurn> = {}): CompactionTurn => ({
  index,
  role,
  content,
  parts: null,
  toolName: null,
  modelName: null,
  files: [],
  images: [],
  ...extra,
});

/** A session with every kind of turn the renderer must handle. */
const TURNS: CompactionTurn[] = [
  turn(0, "system", "You are a coding agent working in /repo."),
  turn(1, "user", "The parser crashes on empty input; please fix src/parse.ts."),
  turn(2, "assistant", "Let me read the file.\n[tool call Read]", {
    parts: [
      { type: "thinking", text: "secret chain of thought" },
      { type: "text", text: "Let me read the file." },
      { type: "tool_call", id: "call_1", name: "Read", arguments: { path: "src/parse.ts" } },
    ],
  }),
  turn(3, "user", "[tool result]", {
    parts: [{ type: "tool_result", toolCallId: "call_1", content: "export function parse(s) { return s[0].trim(); }" }],
  }),
  turn(4, "tool", "TypeError: Cannot read properties of undefined (reading 'trim')", { toolName: "Bash" }),
  turn(5, "assistant", "Guarded the empty case; tests pass now. Next: add a regression test.", { files: ["src/parse.test.ts"] }),
];

async function failure(promise: Promise<unknown>): Promise<LlmCallError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the summary to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmCallError);
  return error as LlmCallError;
}

function expectNoKeys(error: LlmCallError) {
  for (const key of [OPENAI_KEY, COMPATIBLE_KEY]) {
    expect(error.message).not.toContain(key);
    expect(String(error)).not.toContain(key);
    expect(JSON.stringify(error)).not.toContain(key);
  }
}

describe("summarizeWithLlm: what is sent and what comes back", () => {
  it("openai (OPENAI_BASE_URL): system prompt, every turn, the instructions last, no tools", async () => {
    setEnv({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${baseUrl}/v1` });
    const result = await summarizeWithLlm({ model: "openai:gpt-4o-mini", turns: TURNS, instructions: "the parser fix" });

    expect(result).toEqual({
      text: "Summary: fixed the parser in src/parse.ts with Read and Edit.",
      model: "openai:gpt-4o-mini",
      inputTokens: 321,
      outputTokens: 45,
      durationMs: expect.any(Number),
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);

    expect(requests).toHaveLength(1); // no retries
    const [request] = requests;
    expect(request!.url).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    const body = request!.body;
    expect(body.model).toBe("gpt-4o-mini");
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("tool_choice");
    expect(body.stream).toBeFalsy();

    const [system, ...conversation] = body.messages;
    expect(system).toEqual({ role: "system", content: SUMMARIZER_SYSTEM_PROMPT });
    // Valid for every provider: user first, then strictly alternating, ending with the request.
    expect(conversation[0]!.role).toBe("user");
    conversation.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? "user" : "assistant"));
    const all = conversation.map((m) => m.content).join("\n");
    for (const text of [
      "You are a coding agent working in /repo.",
      "The parser crashes on empty input; please fix src/parse.ts.",
      "Let me read the file.",
      "export function parse(s) { return s[0].trim(); }",
      "TypeError: Cannot read properties of undefined (reading 'trim')",
      "Guarded the empty case; tests pass now. Next: add a regression test.",
    ]) {
      expect(all).toContain(text);
    }
    expect(all).toContain("[system message]\nYou are a coding agent");
    expect(all).toContain('[called Read with {"path":"src/parse.ts"}]');
    expect(all).toContain("[tool result for Read]\nexport function parse");
    expect(all).toContain("[tool result for Bash]\nTypeError");
    expect(all).toContain("[file: src/parse.test.ts]");
    expect(all).not.toContain("secret chain of thought");

    const last = conversation.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content.endsWith(`${SUMMARIZE_PROMPT}\n\nFocus on: the parser fix`)).toBe(true);
  });

  it("openai-compatible (OPENAI_COMPATIBLE_BASE_URL): a model id with a colon, the key when one is set", async () => {
    setEnv({ OPENAI_COMPATIBLE_BASE_URL: baseUrl, OPENAI_COMPATIBLE_API_KEY: COMPATIBLE_KEY });
    fake.answerWith(answer("  The local model's summary.  "));
    const result = await summarizeWithLlm({ model: "openai-compatible:llama3.1:8b", turns: TURNS.slice(1, 2) });

    expect(result.text).toBe("The local model's summary.");
    expect(result.model).toBe("openai-compatible:llama3.1:8b");
    expect(result.inputTokens).toBe(321);
    expect(result.outputTokens).toBe(45);
    const [request] = requests;
    expect(request!.url).toBe("/chat/completions");
    expect(request!.headers.authorization).toBe(`Bearer ${COMPATIBLE_KEY}`);
    expect(request!.body.model).toBe("llama3.1:8b");
    expect(request!.body).not.toHaveProperty("tools");
    expect(request!.body.messages).toEqual([
      { role: "system", content: SUMMARIZER_SYSTEM_PROMPT },
      { role: "user", content: `The parser crashes on empty input; please fix src/parse.ts.\n\n---\n\n${SUMMARIZE_PROMPT}` },
    ]);
  });

  it("openai-compatible without a key sends no Authorization header; settings override the env base URL", async () => {
    setEnv({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/unused" });
    await saveLlmSettings({ openaiCompatibleBaseUrl: `${baseUrl}/v1` });
    await summarizeWithLlm({ model: "openai-compatible:qwen2.5", turns: TURNS });
    expect(requests[0]!.url).toBe("/v1/chat/completions");
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it("a blank model uses the default compaction model (THREADLINE_COMPACTION_MODEL)", async () => {
    setEnv({ OPENAI_COMPATIBLE_BASE_URL: baseUrl, THREADLINE_COMPACTION_MODEL: "openai-compatible:mistral:7b" });
    const result = await summarizeWithLlm({ model: "", turns: TURNS });
    expect(result.model).toBe("openai-compatible:mistral:7b");
    expect(requests[0]!.body.model).toBe("mistral:7b");
  });
});

describe("summarizeWithLlm: failures", () => {
  beforeEach(() => setEnv({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${baseUrl}/v1` }));
  const run = (extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    summarizeWithLlm({ model: "openai:gpt-4o-mini", turns: TURNS, ...extra });

  it("429 -> rate-limit, once (no automatic retries)", async () => {
    fake.answerWith(fail(429, "Rate limit reached for gpt-4o-mini on requests per min."));
    const error = await failure(run());
    expect(error.kind).toBe("rate-limit");
    expect(error.status).toBe(429);
    expect(error.message).toContain("Rate limit reached for gpt-4o-mini");
    expect(requests).toHaveLength(1);
    expectNoKeys(error);
  });

  it("500 -> provider, with the status, the provider's error code and its message", async () => {
    fake.answerWith(fail(500, "The server had an error while processing your request."));
    const error = await failure(run());
    expect(error.kind).toBe("provider");
    expect(error.status).toBe(500);
    expect(error.message).toBe("OpenAI answered HTTP 500, test_error: The server had an error while processing your request.");
    expect(error.brief).toBe("OpenAI answered HTTP 500, test_error");
    expect(requests).toHaveLength(1);
  });

  it("401 -> auth, and a key the provider echoes is blanked out", async () => {
    fake.answerWith(fail(401, `Incorrect API key provided: ${OPENAI_KEY}. You can find your API key at https://platform.openai.com.`));
    const error = await failure(run());
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
    expect(error.message).toContain("OPENAI_API_KEY");
    expectNoKeys(error);
  });

  it("403 -> auth", async () => {
    fake.answerWith(fail(403, "Project does not have access to model gpt-4o-mini"));
    const error = await failure(run());
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(403);
  });

  it("a long provider message is trimmed to one line of at most 300 characters", async () => {
    fake.answerWith(fail(400, `bad\n\nrequest ${"x".repeat(2_000)}`));
    const error = await failure(run());
    expect(error.kind).toBe("provider");
    expect(error.message).toMatch(/^OpenAI answered HTTP 400, test_error: bad request x+…\.$/);
    expect(error.message.length).toBe(300);
  });

  it.each([
    ["null", null],
    ["blank", "  \n "],
  ])("%s content -> empty", async (_label, content) => {
    fake.answerWith(answer(content));
    const error = await failure(run());
    expect(error.kind).toBe("empty");
    expect(error.message).toContain("empty summary");
  });

  it("a server that never answers + a short timeoutMs -> timeout", async () => {
    fake.answerWith(() => {}); // holds the request open: only the timeout can end the call
    const error = await failure(run({ timeoutMs: 300 }));
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("OpenAI did not answer within 300 ms.");
    expect(requests).toHaveLength(1);
  });

  it("an aborted signal -> cancelled (mid-request and before it starts)", async () => {
    const controller = new AbortController();
    fake.answerWith(() => controller.abort()); // abort once the request has arrived
    const error = await failure(run({ signal: controller.signal }));
    expect(error.kind).toBe("cancelled");

    requests.length = 0;
    const before = await failure(run({ signal: AbortSignal.abort() }));
    expect(before.kind).toBe("cancelled");
    expect(requests).toHaveLength(0);
  });

  it("connection refused -> network", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    setEnv({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    const error = await failure(run());
    expect(error.kind).toBe("network");
    expect(error.message).toContain(`Could not reach OpenAI at 127.0.0.1:${port}`);
    expectNoKeys(error);
  });
});

describe("summarizeWithLlm: configuration errors, before any request", () => {
  it("anthropic without ANTHROPIC_API_KEY -> config naming it", async () => {
    setEnv({ OPENAI_API_KEY: OPENAI_KEY });
    const error = await failure(summarizeWithLlm({ model: "anthropic:claude-3-5-haiku-latest", turns: TURNS }));
    expect(error.kind).toBe("config");
    expect(error.message).toBe("Anthropic is not configured: set ANTHROPIC_API_KEY.");
    expect(requests).toHaveLength(0);
  });

  it.each([
    ["openai:gpt-4o-mini", "OPENAI_API_KEY"],
    ["google:gemini-2.0-flash-lite", "GOOGLE_GENERATIVE_AI_API_KEY"],
    ["openai-compatible:llama3.1:8b", "OPENAI_COMPATIBLE_BASE_URL"],
  ])("%s without settings -> config naming %s", async (model, variable) => {
    const error = await failure(summarizeWithLlm({ model, turns: TURNS }));
    expect(error.kind).toBe("config");
    expect(error.message).toContain(variable);
  });

  it("an invalid model spec -> config with the spec's message", async () => {
    const error = await failure(summarizeWithLlm({ model: "foo:bar", turns: TURNS }));
    expect(error.kind).toBe("config");
    expect(error.message).toBe('model: provider must be one of openai, anthropic, google, openai-compatible; got "foo"');
  });

  it("no model and no default -> config naming THREADLINE_COMPACTION_MODEL", async () => {
    const error = await failure(summarizeWithLlm({ model: " ", turns: TURNS }));
    expect(error.kind).toBe("config");
    expect(error.message).toContain("THREADLINE_COMPACTION_MODEL");
  });

  it("a base URL that is not http(s) -> config", async () => {
    setEnv({ OPENAI_COMPATIBLE_BASE_URL: "localhost:11434" });
    const error = await failure(summarizeWithLlm({ model: "openai-compatible:llama3", turns: TURNS }));
    expect(error.kind).toBe("config");
    expect(error.message).toContain("OPENAI_COMPATIBLE_BASE_URL is not an http(s) URL");
  });
});

describe("buildSummaryMessages", () => {
  it("starts with a user message when the history starts with the assistant, and merges same-side turns", () => {
    const messages = buildSummaryMessages([
      turn(0, "assistant", "Hello, how can I help?"),
      turn(1, "assistant", "Still here."),
      turn(2, "user", "Fix the bug."),
      turn(3, "tool", "ok", { toolName: "Bash" }),
    ]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]!.content).toBe("Hello, how can I help?\n\nStill here.");
    expect(messages[2]!.content).toBe(`Fix the bug.\n\n[tool result for Bash]\nok\n\n---\n\n${SUMMARIZE_PROMPT}`);
  });

  it("puts the request in its own user message after an assistant turn, with the focus", () => {
    const messages = buildSummaryMessages([turn(0, "user", "Hi"), turn(1, "assistant", "Hello")], "  open questions ");
    expect(messages.at(-1)).toEqual({ role: "user", content: `${SUMMARIZE_PROMPT}\n\nFocus on: open questions` });
  });

  it("names the PAL tool a run of turns ran under, once per run, so the summary can keep it", () => {
    const messages = buildSummaryMessages([
      turn(0, "user", "Why do sessions drop?", { toolName: "analyze" }),
      turn(1, "assistant", "The expiry is stale.", { toolName: "analyze" }),
      turn(2, "user", "Review the fix.", { toolName: "codereview" }),
      turn(3, "assistant", "Looks right.", { toolName: "codereview" }),
      turn(4, "tool", "ok", { toolName: "Bash" }),
    ]);
    expect(messages.map((m) => m.content)).toEqual([
      "[under tool analyze]\nWhy do sessions drop?",
      "The expiry is stale.",
      "[under tool codereview]\nReview the fix.",
      `Looks right.`,
      `[tool result for Bash]\nok\n\n---\n\n${SUMMARIZE_PROMPT}`,
    ]);
  });

  it("labels tool errors, reads content blocks as text and skips blank turns", () => {
    const messages = buildSummaryMessages([
      turn(0, "user", "   "),
      turn(1, "assistant", "", { parts: [{ type: "tool_call", id: "t1", name: "Bash", arguments: { command: "npm test" } }] }),
      turn(2, "user", "", {
        parts: [{ type: "tool_result", toolCallId: "t1", isError: true, content: [{ type: "text", text: "1 failing" }] }],
      }),
    ]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]!.content).toBe('[called Bash with {"command":"npm test"}]');
    expect(messages[2]!.content.startsWith("[tool error for Bash]\n1 failing")).toBe(true);
  });
});
