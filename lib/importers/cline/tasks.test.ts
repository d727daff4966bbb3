import { describe, expect, it } from "vitest";
import { detectFormat, isTranscriptPath, parseDetected } from "../index";
import { expectPaired, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError, type ImportedThread } from "../types";
import { parseClineTask, variantByContent, type ClineTaskDocument } from "./index";
import { clineHistoryOf, clineTaskPath, isClineSideFile } from "./paths";
import { matchRequests, rooTokensInIncludesCache, usageOfRecord, type ApiRequest } from "./requests";
import { childTaskOf } from "./turns";

const T = 1767225600000;
const ENV =
  "<environment_details>\n# Current Working Directory (/home/me/app) Files\nsrc/\n\n# Current Mode\nACT MODE\n</environment_details>";
const ROO_ENV = (model: string) =>
  `<environment_details>\n# Current Mode\n<slug>code</slug>\n<name>Code</name>\n<model>${model}</model>\n\n# Current Workspace Directory (/home/me/roo) Files\n</environment_details>`;

const user = (text: string, ts?: number, extra: object = {}) => ({
  role: "user",
  content: [
    { type: "text", text },
    { type: "text", text: ENV },
  ],
  ...(ts ? { ts } : {}),
  ...extra,
});
const assistant = (content: object[], ts?: number, extra: object = {}) => ({ role: "assistant", content, ...(ts ? { ts } : {}), ...extra });
const results = (ids: string[], ts?: number, text = "ok") => ({
  role: "user",
  content: [...ids.map((id) => ({ type: "tool_result", tool_use_id: id, content: text })), { type: "text", text: ENV }],
  ...(ts ? { ts } : {}),
});
const request = (ts: number | undefined, usage: object, extra: object = {}) => ({
  ...(ts ? { ts } : {}),
  type: "say",
  say: "api_req_started",
  text: JSON.stringify({ request: "…", ...usage }),
  ...extra,
});

function parse(doc: Partial<ClineTaskDocument> & { api: unknown }, name = "api_conversation_history.json") {
  return parseClineTask({ taskId: String(T), variant: "cline", ...doc }, { name });
}

describe("task paths", () => {
  it("finds the task and its variant from the extension folder", () => {
    expect(
      clineTaskPath(`/home/me/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/${T}/api_conversation_history.json`),
    ).toEqual({
      tasksFolder: "/home/me/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
      taskId: String(T),
      variant: "cline",
      file: "api_conversation_history.json",
    });
    expect(clineTaskPath("/home/me/.cline/data/tasks/1/ui_messages.json")?.variant).toBe("cline");
    expect(
      clineTaskPath("/x/Cursor/User/globalStorage/RooVeterinaryInc.roo-cline/tasks/abc-1/api_conversation_history.json")?.variant,
    ).toBe("roo-code");
    expect(
      clineTaskPath("C:\\Users\\me\\AppData\\Roaming\\Code\\User\\globalStorage\\kilocode.kilo-code\\tasks\\u-1\\task_metadata.json"),
    ).toMatchObject({
      taskId: "u-1",
      variant: "kilo-code",
      file: "task_metadata.json",
    });
    // A custom storage folder (Roo Code's setting): a task, its variant decided by content.
    expect(clineTaskPath("/data/roo/tasks/u-2/api_conversation_history.json")?.variant).toBeNull();
    expect(clineTaskPath("/data/api_conversation_history.json")).toBeNull();
    expect(clineTaskPath("/data/tasks/api_conversation_history.json")).toBeNull();
  });

  it("makes the task's side files no transcripts, and maps them to its API history", () => {
    const task = `/g/saoudrizwan.claude-dev/tasks/${T}`;
    expect(isTranscriptPath(`${task}/api_conversation_history.json`)).toBe(true);
    for (const side of ["ui_messages.json", "task_metadata.json", "context_history.json", "history_item.json", "settings.json"])
      expect(isTranscriptPath(`${task}/${side}`), side).toBe(false);
    expect(isTranscriptPath("/g/rooveterinaryinc.roo-cline/tasks/_index.json")).toBe(false);
    expect(isTranscriptPath("/home/me/.cline/data/secrets.json")).toBe(false);
    expect(isClineSideFile("/home/me/.cline/data/state/taskHistory.json")).toBe(true);
    expect(isTranscriptPath("/elsewhere/_index.json")).toBe(true);
    expect(clineHistoryOf(`${task}/ui_messages.json`)).toBe(`${task}/api_conversation_history.json`);
    expect(clineHistoryOf(`${task}/context_history.json`)).toBeNull();
    expect(clineHistoryOf("C:\\g\\tasks\\1\\task_metadata.json")).toBe("C:\\g\\tasks\\1\\api_conversation_history.json");
  });
});

describe("detection", () => {
  const history = [user("<task>\nFix the build\n</task>"), assistant([{ type: "text", text: "Done." }])];

  it("takes an API history, and leaves plain role/content lists to plain", () => {
    expect(detectFormat("api_conversation_history.json", JSON.stringify(history)).format).toBe("cline");
    expect(detectFormat("upload.json", JSON.stringify(history)).format).toBe("cline");
    const roo = [{ ...history[0], condenseParent: "c1" }, history[1]];
    expect(detectFormat("upload.json", JSON.stringify(roo)).format).toBe("roo-code");
    expect(detectFormat("/g/kilocode.kilo-code/tasks/u/api_conversation_history.json", JSON.stringify(history)).format).toBe("kilo-code");
    const plain = [
      { role: "user", content: "Fix the build" },
      { role: "assistant", content: "Done." },
    ];
    expect(detectFormat("chat.json", JSON.stringify(plain)).format).toBe("plain");
    // Blocks but no opening the extensions write, under another name: not taken.
    const blocks = [{ role: "user", content: [{ type: "text", text: "hello" }] }];
    expect(() => detectFormat("chat.json", JSON.stringify(blocks))).toThrow(ImportFormatError);
  });

  it("parses an API history alone: turns, no usage, a key made from its first message", async () => {
    const detected = detectFormat("api_conversation_history.json", JSON.stringify(history));
    const parsed = await parseDetected("api_conversation_history.json", detected);
    const thread = onlyThread(parsed);
    expect(thread.key).toMatch(/^history-[0-9a-f]{24}$/);
    expect(thread.turns.map((t) => t.usage ?? null)).toEqual([null, null]);
    // The same task grown: the same key.
    const grown = [...history, user("<feedback>more</feedback>"), assistant([{ type: "text", text: "More." }])];
    const again = await parseDetected(
      "api_conversation_history.json",
      detectFormat("api_conversation_history.json", JSON.stringify(grown)),
    );
    expect(onlyThread(again).key).toBe(thread.key);
    expect(variantByContent(history)).toBe("cline");
  });
});

describe("turns", () => {
  it("pairs tool calls with their results, keeps thinking, images and environment details apart", () => {
    const api = [
      {
        role: "user",
        content: [
          { type: "text", text: "<task>\nLook at this screenshot\n</task>" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          { type: "text", text: ENV },
        ],
      },
      assistant([
        { type: "thinking", thinking: "Read it first.", signature: "s" },
        { type: "redacted_thinking", data: "xx" },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } },
        { type: "tool_use", id: "t2", name: "list_files", input: { path: "." } },
      ]),
      results(["t1", "t2"]),
      assistant([{ type: "text", text: "All good." }]),
    ];
    const thread = onlyThread(parse({ api }));
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["0", "user"],
      ["1", "assistant"],
      ["2:results", "tool"],
      ["3", "assistant"],
    ]);
    expect(expectPaired(thread)).toBe(2);
    expect(thread.title).toBe("Look at this screenshot");
    expect(thread.project).toBe("/home/me/app");
    const first = thread.turns[0]!;
    expect(first.content).toBe("Look at this screenshot\n\n[image]");
    expect(first.images).toEqual(["image"]);
    expect(first.parts).toContainEqual({ type: "image", mediaType: "image/png", alt: "image attached to the message" });
    expect(first.parts).toContainEqual(expect.objectContaining({ type: "text", synthetic: true, environmentDetails: true }));
    expect(JSON.stringify(first)).not.toContain("iVBORw0KGgo");
    expect(partsOf(thread, "thinking")).toEqual([
      { type: "thinking", text: "Read it first." },
      { type: "thinking", text: "", redacted: true },
    ]);
    expect(thread.turns[2]!.content).toBe("ok\n\nok");
  });

  it("makes a result of a tool called in XML text a tool turn, and keeps entries that are no message as skipped", () => {
    const api = [
      user("<task>\nx\n</task>"),
      assistant([{ type: "text", text: "<read_file>\n<path>a.ts</path>\n</read_file>" }]),
      {
        role: "user",
        content: [
          { type: "text", text: "[read_file for 'a.ts'] Result:" },
          { type: "text", text: "1 | a" },
        ],
      },
      "junk",
      { role: "system", content: "x" },
      { role: "user" },
    ];
    const parsed = parse({ api });
    const thread = onlyThread(parsed);
    expect(thread.turns[2]).toMatchObject({ key: "2", role: "tool", metadata: { toolResultInText: true } });
    expect(parsed.skipped.map((s) => s.path)).toEqual([
      "api_conversation_history.json[3]",
      "api_conversation_history.json[4]",
      "api_conversation_history.json[5]",
    ]);
  });

  it("refuses what is not a list of messages", () => {
    expect(() => parse({ api: { messages: [] } })).toThrow(/must be a JSON list of messages, found object/);
    expect(() => parse({ api: [{ role: "tool", content: "x" }] })).toThrow(ImportFormatError);
  });
});

describe("usage", () => {
  const api = [
    user("<task>\ngo\n</task>", T + 2000),
    assistant([{ type: "tool_use", id: "a", name: "read_file", input: {} }], T + 10000),
    results(["a"], T + 10500),
    assistant([{ type: "text", text: "done" }], T + 20000),
  ];

  it("puts each request's usage on the response it answers, once; a retried request's first try on a turn of its own", () => {
    const ui = [
      { ts: T, type: "say", say: "task", text: "go" },
      request(T + 1000, { tokensIn: 3, tokensOut: 50, cacheWrites: 9000, cacheReads: 0, cost: 0.04 }),
      // A request that streamed a little, failed, and was asked again (Roo Code's retry makes a new record).
      request(T + 10200, { tokensIn: 2, tokensOut: 7, cacheWrites: 0, cacheReads: 9000, cost: 0.003, cancelReason: "streaming_failed" }),
      request(T + 10400, { tokensIn: 4, tokensOut: 20, cacheWrites: 100, cacheReads: 9000, cost: 0.005 }),
      // Still running: no tokens yet; answers nothing.
      request(T + 30000, {}),
    ];
    const parsed = parse({ api, ui });
    const thread = onlyThread(parsed);
    // Placed by its time: before the results sent with its retry.
    expect(thread.turns.map((t) => t.key)).toEqual(["0", "1", `ui:${T + 10200}`, "2:results", "3"]);
    expect(thread.turns[1]!.usage).toEqual({
      inputTokens: 3,
      outputTokens: 50,
      cacheReadTokens: 0,
      cacheWriteTokens: 9000,
      reportedCostUsd: 0.04,
    });
    expect(thread.turns[2]).toMatchObject({
      role: "assistant",
      content: "",
      usage: { inputTokens: 2, outputTokens: 7, cacheReadTokens: 9000, reportedCostUsd: 0.003 },
      metadata: { apiRequestWithoutResponse: true, cancelReason: "streaming_failed" },
    });
    expect(thread.turns[4]!.usage).toEqual({
      inputTokens: 4,
      outputTokens: 20,
      cacheReadTokens: 9000,
      cacheWriteTokens: 100,
      reportedCostUsd: 0.005,
    });
    expect(thread.metadata).toMatchObject({ usageMatching: "time", apiRequests: 4, requestsWithoutResponse: 2 });
    expect(parsed.warnings).toEqual([]);
    expect(thread.createdAt).toBe(new Date(T).toISOString());
  });

  it("pairs by Cline's conversationHistoryIndex when the history has no times", () => {
    const untimed = api.map(({ ts: _ts, ...m }: { ts?: number }) => m);
    const ui = [
      request(undefined, { tokensIn: 1, tokensOut: 1 }, { conversationHistoryIndex: -1 }),
      request(undefined, { tokensIn: 5, tokensOut: 5 }, { conversationHistoryIndex: 1 }),
    ];
    const thread = onlyThread(parse({ api: untimed, ui }));
    expect(thread.metadata?.usageMatching).toBe("history-index");
    expect(thread.turns.filter((t) => t.role === "assistant").map((t) => t.usage?.inputTokens)).toEqual([1, 5]);
  });

  it("pairs in order without times or indexes, and says so when the counts differ", () => {
    const untimed = api.map(({ ts: _ts, ...m }: { ts?: number }) => m);
    const ui = [request(undefined, { tokensIn: 1, tokensOut: 1 })];
    const parsed = parse({ api: untimed, ui });
    const thread = onlyThread(parsed);
    expect(thread.metadata?.usageMatching).toBe("order");
    expect(thread.turns.filter((t) => t.role === "assistant").map((t) => t.usage?.inputTokens ?? null)).toEqual([1, null]);
    expect(parsed.warnings).toEqual([expect.stringContaining("1 API requests in ui_messages.json for 2 responses")]);
  });

  it("matches in linear steps: the later of two requests between responses wins", () => {
    const req = (ts: number): ApiRequest => ({ uiIndex: ts, ts, info: {}, historyIndex: null, modelInfo: null });
    const { matched, unmatched } = matchRequests(
      [req(1), req(5), req(6), req(20)],
      [
        { apiIndex: 1, ts: 3 },
        { apiIndex: 3, ts: 10 },
      ],
    );
    expect(matched.map((r) => r?.ts)).toEqual([1, 6]);
    expect(unmatched.map((r) => r.ts)).toEqual([5, 20]);
  });

  it("reads Roo Code's tokensIn with or without the cache, as its build wrote it", () => {
    const newer = [{ info: { apiProtocol: "anthropic", tokensIn: 15840, cacheWrites: 15837, cacheReads: 0 } }];
    const older = [{ info: { apiProtocol: "anthropic", tokensIn: 12, cacheWrites: 11850, cacheReads: 0 } }];
    expect(rooTokensInIncludesCache(newer)).toBe(true);
    expect(rooTokensInIncludesCache(older)).toBe(false);
    expect(usageOfRecord({ tokensIn: 15840, tokensOut: 1, cacheWrites: 15837, cacheReads: 0 }, true)).toMatchObject({ inputTokens: 3 });
    expect(usageOfRecord({ tokensIn: 12, tokensOut: 1, cacheWrites: 11850 }, false)).toMatchObject({ inputTokens: 12 });
    expect(usageOfRecord({ request: "x" }, false)).toBeNull();
    const rooApi = [user("<user_message>\ngo\n</user_message>", T + 2000), assistant([{ type: "text", text: "a" }], T + 5000)];
    const ui = [request(T + 1000, { apiProtocol: "openai", tokensIn: 1000, tokensOut: 10, cacheReads: 800, cacheWrites: 0 })];
    const thread = onlyThread(parseClineTask({ api: rooApi, ui, taskId: "u", variant: "roo-code" }, { name: "x" }));
    expect(thread.turns[1]!.usage).toMatchObject({ inputTokens: 200, cacheReadTokens: 800 });
    expect(thread.title).toBe("go");
  });
});

describe("models", () => {
  it("takes the message's modelInfo, else task_metadata's model_usage at the response's time, else the environment details' <model>", () => {
    const api = [
      user("<task>\ngo\n</task>", T + 1000),
      assistant([{ type: "text", text: "a" }], T + 2000, { modelInfo: { providerId: "openrouter", modelId: "x/one", mode: "plan" } }),
      user("next", T + 3000),
      assistant([{ type: "text", text: "b" }], T + 4000),
      user("next", T + 9000),
      assistant([{ type: "text", text: "c" }], T + 10000),
    ];
    const metadata = {
      model_usage: [
        { ts: T + 500, model_id: "claude-sonnet-4-5", model_provider_id: "anthropic", mode: "act" },
        { ts: T + 8000, model_id: "gpt-5", model_provider_id: "openai", mode: "act" },
      ],
    };
    const assistants = onlyThread(parse({ api, metadata })).turns.filter((t) => t.role === "assistant");
    expect(assistants.map((t) => [t.modelProvider, t.modelName, t.metadata?.modelSource])).toEqual([
      ["openrouter", "x/one", "message"],
      ["anthropic", "claude-sonnet-4-5", "task_metadata"],
      ["openai", "gpt-5", "task_metadata"],
    ]);
    const rooApi = [
      {
        role: "user",
        content: [
          { type: "text", text: "<user_message>\ngo\n</user_message>" },
          { type: "text", text: ROO_ENV("claude-opus-4-1") },
        ],
      },
      assistant([{ type: "text", text: "a" }]),
    ];
    const roo = onlyThread(parseClineTask({ api: rooApi, taskId: "u", variant: "roo-code" }, { name: "x" }));
    expect(roo.turns[1]).toMatchObject({ modelName: "claude-opus-4-1", modelProvider: null });
    expect(roo.project).toBe("/home/me/roo");
  });
});

describe("compaction and sub-tasks", () => {
  it("makes Roo Code's summary and truncation marker compaction turns with the ui's figures", () => {
    const api = [
      user("<user_message>\ngo\n</user_message>", T + 1000, { condenseParent: "c1" }),
      assistant([{ type: "text", text: "a" }], T + 2000, { condenseParent: "c1" }),
      { role: "user", content: [{ type: "text", text: "## Summary\nall of it" }], ts: T + 2001, isSummary: true, condenseId: "c1" },
      assistant([{ type: "text", text: "b" }], T + 3000),
      {
        role: "user",
        content: "[Sliding window truncation: 4 messages hidden]",
        ts: T + 3001,
        isTruncationMarker: true,
        truncationId: "t1",
      },
      assistant([{ type: "text", text: "c" }], T + 4000),
    ];
    const ui = [
      {
        ts: T + 2001,
        type: "say",
        say: "condense_context",
        contextCondense: { cost: 0.02, prevContextTokens: 90000, newContextTokens: 3000, summary: "…", condenseId: "c1" },
      },
      {
        ts: T + 3001,
        type: "say",
        say: "sliding_window_truncation",
        contextTruncation: { truncationId: "t1", messagesRemoved: 4, prevContextTokens: 120000, newContextTokens: 60000 },
      },
    ];
    const thread = onlyThread(parseClineTask({ api, ui, taskId: "u", variant: "roo-code" }, { name: "x" }));
    expect(thread.turns[0]!.metadata).toMatchObject({ condenseParent: "c1" });
    expect(thread.turns[2]).toMatchObject({
      role: "system",
      content: "## Summary\nall of it",
      compaction: { trigger: null, tokensBefore: 90000, tokensAfter: 3000 },
      metadata: { condenseId: "c1", condenseCostUsd: 0.02 },
    });
    expect(thread.turns[4]).toMatchObject({
      role: "system",
      compaction: { trigger: "sliding_window", tokensBefore: 120000, tokensAfter: 60000 },
      metadata: { truncationId: "t1", messagesRemoved: 4 },
    });
    expect(thread.turns.filter((t) => t.role === "assistant")).toHaveLength(3);
  });

  it("puts Cline's summarize_task summary after the call's result", () => {
    const api = [
      user("<task>\ngo\n</task>"),
      assistant([{ type: "tool_use", id: "s1", name: "summarize_task", input: { context: "1. Everything so far" } }]),
      results(["s1"], undefined, "continue from the summary"),
      assistant([{ type: "text", text: "Continuing." }]),
    ];
    const thread = onlyThread(parse({ api }));
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["0", "user"],
      ["1", "assistant"],
      ["2:results", "tool"],
      ["1:compaction", "system"],
      ["3", "assistant"],
    ]);
    expect(thread.turns[3]).toMatchObject({ content: "1. Everything so far", compaction: { trigger: "auto" } });
    expect(expectPaired(thread)).toBe(1);
  });

  it("names Roo Code's child task on its new_task call, and makes a child with its parentTaskId a sub-agent thread", () => {
    expect(childTaskOf("Delegated to child task 7d1e-22")).toBe("7d1e-22");
    expect(childTaskOf("Subtask 7d1e-22 completed.\n\nResult:\nok")).toBe("7d1e-22");
    expect(childTaskOf("Successfully created new task in Code mode")).toBeNull();
    const api = [
      user("<user_message>\ngo\n</user_message>"),
      assistant([{ type: "tool_use", id: "n1", name: "new_task", input: { mode: "code", message: "do it" } }]),
      results(["n1"], undefined, "Delegated to child task 7d1e-22"),
    ];
    const parent = onlyThread(parseClineTask({ api, taskId: "p1", variant: "roo-code" }, { name: "x" }));
    expect(partsOf(parent, "tool_call")[0]).toMatchObject({ name: "new_task", childTaskId: "7d1e-22" });
    const child = onlyThread(
      parseClineTask(
        {
          api: [user("<user_message>\ndo it\n</user_message>")],
          historyItem: { id: "7d1e-22", parentTaskId: "p1", rootTaskId: "p1" },
          taskId: "7d1e-22",
          variant: "roo-code",
        },
        { name: "y" },
      ),
    );
    expect(child).toMatchObject({ key: "7d1e-22", parentKey: "p1", relation: { kind: "subagent", toolCallId: null } });
  });

  it("gives Cline's use_subagents a child thread holding the sub-agents' reported usage, and deleted requests' usage a turn", () => {
    const api = [
      user("<task>\nsurvey\n</task>", T + 1000),
      assistant([{ type: "tool_use", id: "u1", name: "use_subagents", input: { prompt_1: "look at a", prompt_2: "look at b" } }], T + 5000),
      results(["u1"], T + 60000, "Subagent results:\nTotal: 2"),
      assistant([{ type: "text", text: "Both done." }], T + 70000),
    ];
    const ui = [
      request(T + 500, { tokensIn: 10, tokensOut: 10 }),
      {
        ts: T + 59000,
        type: "say",
        say: "subagent_usage",
        text: JSON.stringify({ source: "subagents", tokensIn: 500, tokensOut: 300, cacheWrites: 0, cacheReads: 4000, cost: 0.12 }),
      },
      request(T + 60500, { tokensIn: 20, tokensOut: 20 }),
      {
        ts: T + 80000,
        type: "say",
        say: "deleted_api_reqs",
        text: JSON.stringify({ tokensIn: 7, tokensOut: 8, cacheWrites: 0, cacheReads: 0, cost: 0.01 }),
      },
    ];
    const parsed = parse({ api, ui });
    expect(parsed.threads).toHaveLength(2);
    const [main, subagents] = parsed.threads as [ImportedThread, ImportedThread];
    expect(subagents).toMatchObject({
      key: `${T}:subagents:u1`,
      parentKey: String(T),
      relation: { kind: "subagent", toolCallId: "u1" },
      title: "Subagents: look at a",
    });
    expect(subagents.turns.map((t) => [t.role, t.content])).toEqual([
      ["user", "look at a\n\nlook at b"],
      ["assistant", "Subagent results:\nTotal: 2"],
    ]);
    expect(subagents.turns[1]!.usage).toEqual({
      inputTokens: 500,
      outputTokens: 300,
      cacheReadTokens: 4000,
      cacheWriteTokens: 0,
      reportedCostUsd: 0.12,
    });
    expect(main.turns.at(-1)).toMatchObject({ key: `ui:${T + 80000}`, role: "system", usage: { inputTokens: 7, outputTokens: 8 } });
    // Every record counted once: the requests on the two responses, the rest on their own turns.
    const all = parsed.threads.flatMap((t) => t.turns).reduce((n, t) => n + (t.usage?.inputTokens ?? 0), 0);
    expect(all).toBe(10 + 500 + 20 + 7);
  });
});
