// Synthetic OpenCode sessions for what the real samples lack: errors, aborted and unfinished
// steps, child sessions, file mentions, automatic compaction, builds whose output excludes reasoning.
import { describe, expect, it } from "vitest";
import { ImportFormatError } from "../types";
import { detectFormat } from "../index";
import { looksLikeOpenCodeExport, parseOpenCodeExport, parseOpenCodeSessions } from "./index";
import { childSessionOf, usageOfTokens } from "./session";

const T = 1771214900000;
const tokens = (input: number, output: number, reasoning = 0, read = 0, write = 0) => ({
  total: input + output + read + write,
  input,
  output,
  reasoning,
  cache: { read, write },
});

function session(id: string, messages: unknown[], extra: Record<string, unknown> = {}) {
  return {
    info: {
      id,
      slug: "calm-otter",
      projectID: "p1",
      directory: "/w",
      title: "A session",
      version: "1.2.5",
      time: { created: T, updated: T + 9000 },
      ...extra,
    },
    messages,
  };
}
const user = (id: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({
  info: {
    id,
    sessionID: "s",
    role: "user",
    time: { created: T + 1 },
    agent: "build",
    model: { providerID: "anthropic", modelID: "claude-sonnet-4" },
    ...extra,
  },
  parts,
});
const assistant = (id: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({
  info: {
    id,
    sessionID: "s",
    role: "assistant",
    parentID: "u1",
    providerID: "anthropic",
    modelID: "claude-sonnet-4",
    mode: "build",
    agent: "build",
    time: { created: T + 2, completed: T + 3 },
    cost: 0.0123,
    tokens: tokens(100, 20, 0, 1000, 50),
    ...extra,
  },
  parts,
});
const text = (value: string, extra: Record<string, unknown> = {}) => ({ id: `prt_${value.length}`, type: "text", text: value, ...extra });
const tool = (callID: string, name: string, state: Record<string, unknown>) => ({
  id: `prt_${callID}`,
  type: "tool",
  callID,
  tool: name,
  state,
});

describe("tool parts", () => {
  const doc = session("ses_1", [
    user("u1", [text("go")]),
    assistant("a1", [
      tool("c_ok", "bash", {
        status: "completed",
        input: { command: "ls" },
        output: "a\nb",
        title: "ls",
        metadata: {},
        time: { start: T + 4, end: T + 5 },
      }),
      tool("c_err", "read", { status: "error", input: { filePath: "/nope" }, error: "File not found", time: { start: T + 4, end: T + 6 } }),
      tool("c_run", "bash", { status: "running", input: { command: "sleep 9" }, time: { start: T + 4 } }),
      tool("c_pend", "edit", { status: "pending", input: {}, raw: '{"file' }),
    ]),
  ]);
  const thread = parseOpenCodeExport(doc, { name: "x.json" }).threads[0]!;

  it("puts finished results on one tool turn after the step, errors flagged; unfinished calls have none and are marked", () => {
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["u1", "user"],
      ["a1", "assistant"],
      ["a1:results", "tool"],
    ]);
    const calls = thread.turns[1]!.parts!;
    expect(calls.map((p) => (p.type === "tool_call" ? [p.id, p.status, p.unfinished === true] : null))).toEqual([
      ["c_ok", "completed", false],
      ["c_err", "error", false],
      ["c_run", "running", true],
      ["c_pend", "pending", true],
    ]);
    expect(calls[3]).toMatchObject({ raw: '{"file' });
    expect(thread.turns[2]!.parts).toEqual([
      expect.objectContaining({ type: "tool_result", toolCallId: "c_ok", content: "a\nb", isError: false }),
      expect.objectContaining({ type: "tool_result", toolCallId: "c_err", content: "File not found", isError: true }),
    ]);
    expect(thread.turns[2]!.timestamp).toBe(new Date(T + 6).toISOString());
  });

  it("keeps usage per step and the reported cost", () => {
    expect(thread.turns[1]!.usage).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      reasoningTokens: 0,
      cacheReadTokens: 1000,
      cacheWriteTokens: 50,
      reportedCostUsd: 0.0123,
    });
    expect(thread.turns[1]).toMatchObject({ modelProvider: "anthropic", modelName: "claude-sonnet-4" });
  });
});

describe("errors", () => {
  it("marks an aborted step and shows another error in the text", () => {
    const doc = session("ses_2", [
      user("u1", [text("go")]),
      assistant("a1", [text("partial")], {
        error: { name: "MessageAbortedError", data: { message: "The operation was aborted." } },
        finish: undefined,
      }),
      assistant("a2", [], { error: { name: "APIError", data: { message: "rate limited", statusCode: 429 } } }),
    ]);
    const [, aborted, failed] = parseOpenCodeExport(doc, { name: "x.json" }).threads[0]!.turns;
    expect(aborted).toMatchObject({ content: "partial\n\n[aborted]", metadata: { aborted: true, error: { name: "MessageAbortedError" } } });
    expect(failed).toMatchObject({ content: "[error] APIError: rate limited", metadata: { error: { name: "APIError" } } });
    expect(failed!.metadata!.aborted).toBeUndefined();
  });
});

describe("user messages", () => {
  it("marks synthetic text, leaves ignored text out of the content, names mentioned files and keeps a pasted image's length only", () => {
    const doc = session("ses_3", [
      user("u1", [
        text("look at @src/a.ts"),
        {
          id: "p2",
          type: "file",
          mime: "text/plain",
          filename: "a.ts",
          url: "file:///w/src/a.ts",
          source: { type: "file", path: "src/a.ts", text: { value: "@src/a.ts", start: 8, end: 17 } },
        },
        text("Called the Read tool: contents of a.ts", { synthetic: true }),
        text("hidden", { ignored: true }),
        { id: "p5", type: "file", mime: "image/png", filename: "shot.png", url: "data:image/png;base64,AAAA" },
        { id: "p6", type: "agent", name: "gitter" },
      ]),
    ]);
    const turn = parseOpenCodeExport(doc, { name: "x.json" }).threads[0]!.turns[0]!;
    expect(turn.content).toBe("look at @src/a.ts\n\nCalled the Read tool: contents of a.ts");
    expect(turn.files).toEqual(["src/a.ts"]);
    expect(turn.images).toEqual(["shot.png"]);
    expect(turn.parts).toContainEqual({ type: "text", text: "Called the Read tool: contents of a.ts", synthetic: true });
    expect(turn.parts).toContainEqual({ type: "text", text: "hidden", ignored: true });
    expect(turn.parts).toContainEqual({ type: "image", mediaType: "image/png", alt: "shot.png" });
    expect(JSON.stringify(turn)).not.toContain("base64,AAAA");
    expect(turn.metadata).toMatchObject({
      syntheticParts: 1,
      otherParts: [{ type: "agent", name: "gitter" }],
      model: { modelID: "claude-sonnet-4" },
      fileParts: [
        { filename: "a.ts", url: "file:///w/src/a.ts" },
        { filename: "shot.png", dataUrlChars: 26 },
      ],
    });
  });
});

describe("compaction", () => {
  it("makes an automatic compaction and its summary one marker carrying the summary's usage", () => {
    const doc = session("ses_4", [
      user("u1", [text("go")]),
      assistant("a1", [text("done")]),
      user("u2", [{ id: "p", type: "compaction", auto: true, overflow: true }]),
      assistant("a2", [text("## Summary\nall of it")], {
        summary: true,
        mode: "compaction",
        agent: "compaction",
        tokens: tokens(5000, 300),
        cost: 0.02,
      }),
      user("u3", [text("continue")]),
    ]);
    const turns = parseOpenCodeExport(doc, { name: "x.json" }).threads[0]!.turns;
    expect(turns.map((t) => t.key)).toEqual(["u1", "a1", "u2", "u3"]);
    expect(turns[2]).toMatchObject({
      role: "system",
      content: "## Summary\nall of it",
      compaction: { trigger: "auto" },
      usage: { inputTokens: 5000, outputTokens: 300, reportedCostUsd: 0.02 },
    });
    expect(turns[2]!.parts![0]).toEqual({ type: "compaction", trigger: "auto" });
    expect(turns[2]!.metadata).toMatchObject({
      requestMessageId: "u2",
      request: { part: { type: "compaction", auto: true, overflow: true } },
      summary: { messageId: "a2" },
    });
  });

  it("still marks a compaction whose summary was never written", () => {
    const doc = session("ses_5", [user("u1", [{ id: "p", type: "compaction", auto: false }])]);
    const [marker] = parseOpenCodeExport(doc, { name: "x.json" }).threads[0]!.turns;
    expect(marker).toMatchObject({ key: "u1", role: "system", compaction: { trigger: "manual" } });
    expect(marker!.usage).toBeUndefined();
  });
});

describe("sub-agents", () => {
  const parent = session("ses_parent", [
    user("u1", [text("delegate")]),
    assistant("a1", [
      tool("call_task", "task", {
        status: "completed",
        input: { description: "d", prompt: "p", subagent_type: "general" },
        output: "task_id: ses_child (for resuming)\n\n<task_result>ok</task_result>",
        title: "d",
        metadata: {},
        time: { start: T, end: T + 1 },
      }),
    ]),
  ]);
  const child = session("ses_child", [user("cu1", [text("p")]), assistant("ca1", [text("ok")])], { parentID: "ses_parent" });

  it("reads the child id from the output when the metadata has none", () => {
    expect(childSessionOf({ output: "task_id: ses_child (for resuming)" })).toBe("ses_child");
    expect(childSessionOf({ output: "no task" })).toBeNull();
    expect(childSessionOf({ metadata: { sessionId: "ses_x" }, output: "task_id: ses_y" })).toBe("ses_x");
  });

  it("ties a child read with its parent to the task call", () => {
    const result = parseOpenCodeSessions([child, parent], { name: "storage" });
    const sub = result.threads.find((t) => t.key === "ses_child")!;
    expect(sub.parentKey).toBe("ses_parent");
    expect(sub.relation).toEqual({ kind: "subagent", toolCallId: "call_task", agentId: "ses_child" });
    const parentThread = result.threads.find((t) => t.key === "ses_parent")!;
    expect(parentThread.parentKey ?? null).toBeNull();
  });

  it("a child alone names its parent, and leaves the call to be found by the agentId on the parent's result", () => {
    const sub = parseOpenCodeExport(child, { name: "child.json" }).threads[0]!;
    expect(sub).toMatchObject({ parentKey: "ses_parent", relation: { kind: "subagent", toolCallId: null, agentId: "ses_child" } });
    const result = parseOpenCodeExport(parent, { name: "parent.json" }).threads[0]!.turns[2]!.parts![0];
    expect(result).toMatchObject({ type: "tool_result", toolCallId: "call_task", agentId: "ses_child" });
  });
});

describe("usage across builds", () => {
  it("adds reasoning to output where the build's total says output excluded it", () => {
    expect(usageOfTokens({ total: 100 + 20 + 7 + 3, input: 100, output: 20, reasoning: 7, cache: { read: 3, write: 0 } }, 0)).toMatchObject(
      { outputTokens: 27, reasoningTokens: 7 },
    );
    expect(usageOfTokens({ total: 100 + 20 + 3, input: 100, output: 20, reasoning: 7, cache: { read: 3, write: 0 } }, 0)).toMatchObject({
      outputTokens: 20,
      reasoningTokens: 7,
      reportedCostUsd: 0,
    });
    expect(usageOfTokens(undefined, 1)).toBeNull();
  });
});

describe("bad input", () => {
  it("is not detected as OpenCode without a session id and a message list", () => {
    expect(looksLikeOpenCodeExport({ info: { id: "ses_1" }, messages: [] })).toBe(true);
    expect(looksLikeOpenCodeExport({ info: { id: "x" }, messages: [] })).toBe(false);
    expect(looksLikeOpenCodeExport({ info: { id: "ses_1" } })).toBe(false);
    expect(detectFormat("s.json", JSON.stringify(session("ses_1", []))).format).toBe("opencode");
  });

  it("names the file and field when forced on something else", () => {
    expect(() => parseOpenCodeExport({ info: { id: "ses_1" }, messages: "no" }, { name: "bad.json" })).toThrow(ImportFormatError);
    expect(() => parseOpenCodeExport({ info: { id: "ses_1" }, messages: "no" }, { name: "bad.json" })).toThrow(
      "bad.json: not an OpenCode session: `messages` is not a list",
    );
    expect(() => parseOpenCodeExport([], { name: "bad.json" })).toThrow("not a JSON object");
    expect(() => parseOpenCodeExport({ messages: [] }, { name: "bad.json" })).toThrow("no `info` object");
  });

  it("skips what is no message or part, with its JSON path, and keeps unknown part types", () => {
    const doc = session("ses_6", [
      7,
      { info: { role: "user" }, parts: [] },
      { info: { id: "m", role: "robot" }, parts: [] },
      user("u1", [text("hi"), 3, { id: "r", type: "retry", attempt: 1, error: { name: "APIError" } }]),
    ]);
    const result = parseOpenCodeExport(doc, { name: "x.json" });
    expect(result.skipped).toEqual([
      { path: "messages[0]", reason: "not a message: no info object" },
      { path: "messages[1]", reason: "message without an id" },
      { path: "messages[2]", reason: 'message m: unknown role "robot"' },
      { path: "messages[3].parts[1]", reason: "not a part: no type" },
    ]);
    expect(result.threads[0]!.turns[0]!.metadata).toMatchObject({ otherParts: [{ type: "retry", attempt: 1 }] });
  });
});
