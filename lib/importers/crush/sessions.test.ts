// The Crush parser on session documents written by hand in the shape lib/imports/crush-database.ts
// reads (Crush's column names; parts as the JSON text Crush stores, internal/message/message.go).
import { describe, expect, it } from "vitest";
import { expectPaired, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError } from "../types";
import { parseCrushSession, toolCallOfChild } from "./index";
import { crushTime } from "./messages";

const T0 = 1754709060; // 2025-08-09T03:11:00Z, in Unix seconds as Crush writes it

type Part = { type: string; data: unknown };

function session(overrides: Record<string, unknown> = {}) {
  return {
    id: "5b0c8f57-1d2e-4a4b-9b7e-2f6f0c9e1a01",
    parent_session_id: null,
    title: "Fix the flaky test",
    message_count: 0,
    prompt_tokens: 15805,
    completion_tokens: 59,
    cost: 0.02034625,
    summary_message_id: null,
    todos: null,
    created_at: T0,
    updated_at: T0 + 60,
    ...overrides,
  };
}

let counter = 0;
function message(role: string, parts: Part[], overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    id: `m${String(counter).padStart(3, "0")}`,
    role,
    model: role === "assistant" ? "claude-sonnet-4-5" : "",
    provider: role === "assistant" ? "anthropic" : null,
    is_summary_message: 0,
    created_at: T0 + counter,
    updated_at: T0 + counter,
    finished_at: role === "assistant" ? T0 + counter + 1 : null,
    parts: JSON.stringify(parts),
    ...overrides,
  };
}

const text = (t: string): Part => ({ type: "text", data: { text: t } });
const stop = (): Part => ({ type: "finish", data: { reason: "stop", time: 0 } });
const finish = (reason: string, extra: Record<string, unknown> = {}): Part => ({
  type: "finish",
  data: { reason, time: T0 + 99, ...extra },
});
const call = (id: string, name: string, input: string, finished = true): Part => ({
  type: "tool_call",
  data: { id, name, input, finished },
});
const result = (id: string, content: string, extra: Record<string, unknown> = {}): Part => ({
  type: "tool_result",
  data: { tool_call_id: id, name: "", content, metadata: "", is_error: false, ...extra },
});

function parse(doc: Record<string, unknown>) {
  return parseCrushSession({ schemaVersion: 20260127000000, project: "/home/ada/shop", ...doc }, { name: "crush.db#s" });
}

describe("a Crush session", () => {
  const doc = {
    session: session(),
    messages: [
      message("user", [text("Why does TestRetry fail on CI?"), stop()]),
      message("assistant", [
        {
          type: "reasoning",
          data: { thinking: "Look at the test first.", signature: "c2lnbmF0dXJl", started_at: T0 + 2, finished_at: T0 + 3 },
        },
        text("Let me look."),
        call("toolu_1", "view", '{"file_path":"/home/ada/shop/retry_test.go"}'),
        call("toolu_2", "bash", "not json {"),
        finish("tool_use"),
      ]),
      message("tool", [
        result("toolu_1", "<file>\n1|package shop\n</file>", {
          metadata: '{"file_path":"/home/ada/shop/retry_test.go"}',
        }),
        result("toolu_2", "command not found", { is_error: true }),
        stop(),
      ]),
      message("assistant", [text("The retry waits on the wall clock."), finish("end_turn")]),
    ],
  };
  const thread = onlyThread(parse(doc));

  it("is one thread keyed by the session id: title, project, times in Unix seconds, Crush's own figures in metadata", () => {
    expect(thread).toMatchObject({
      key: doc.session.id,
      title: "Fix the flaky test",
      toolName: "crush",
      project: "/home/ada/shop",
      createdAt: "2025-08-09T03:11:00.000Z",
      lastUpdatedAt: "2025-08-09T03:12:00.000Z",
    });
    expect(thread.parentKey).toBeUndefined();
    expect(thread.metadata).toEqual({
      schemaVersion: 20260127000000,
      messageCount: 0,
      crushUsage: { promptTokens: 15805, completionTokens: 59, costUsd: 0.02034625 },
    });
  });

  it("has a turn per message, in order, with the message's id, role and time", () => {
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual(doc.messages.map((m) => [m.id, m.role]));
    expect(thread.turns.map((t) => t.timestamp)).toEqual(doc.messages.map((m) => new Date(m.created_at * 1000).toISOString()));
    // The finish {reason: stop} Crush closes a prompt with is not kept.
    expect(thread.turns[0]).toEqual({
      key: doc.messages[0]!.id,
      role: "user",
      content: "Why does TestRetry fail on CI?",
      timestamp: thread.turns[0]!.timestamp,
    });
  });

  it("keeps each response's model, provider, text, thinking and tool calls, and no usage of its own", () => {
    const response = thread.turns[1]!;
    expect(response).toMatchObject({ modelProvider: "anthropic", modelName: "claude-sonnet-4-5" });
    expect(response.usage).toBeUndefined();
    expect(response.parts).toEqual([
      {
        type: "thinking",
        text: "Look at the test first.",
        opaqueChars: 12,
        startedAt: new Date((T0 + 2) * 1000).toISOString(),
        finishedAt: new Date((T0 + 3) * 1000).toISOString(),
      },
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "toolu_1", name: "view", arguments: { file_path: "/home/ada/shop/retry_test.go" } },
      // An input that is not JSON is kept as the text it is.
      { type: "tool_call", id: "toolu_2", name: "bash", arguments: "not json {" },
    ]);
    expect(response.content).toBe('Let me look.\n\n[view] {"file_path":"/home/ada/shop/retry_test.go"}\n\n[bash] not json {');
    expect(response.metadata).toEqual({
      finish: { reason: "tool_use", time: new Date((T0 + 99) * 1000).toISOString() },
      finishedAt: new Date((doc.messages[1]!.finished_at as number) * 1000).toISOString(),
    });
  });

  it("pairs each tool call with its result in the tool turn after it", () => {
    expect(expectPaired(thread)).toBe(2);
    expect(thread.turns[2]!.parts).toEqual([
      {
        type: "tool_result",
        toolCallId: "toolu_1",
        content: "<file>\n1|package shop\n</file>",
        isError: false,
        metadata: { file_path: "/home/ada/shop/retry_test.go" },
      },
      { type: "tool_result", toolCallId: "toolu_2", content: "command not found", isError: true },
    ]);
    expect(thread.turns[2]!.content).toBe("<file>\n1|package shop\n</file>\n\ncommand not found");
    expect(thread.turns[2]!.metadata).toBeUndefined();
  });
});

describe("message parts", () => {
  it("a failed, a refused, a canceled and a denied response say so in their text; an unfinished call is marked", () => {
    const thread = onlyThread(
      parse({
        session: session(),
        messages: [
          message("assistant", [finish("error", { message: "API Error", details: "400 Bad Request" })]),
          message("assistant", [text("I can't"), finish("content_filter", { message: "Refused" })]),
          message("assistant", [text("Start"), call("c1", "edit", '{"file_path":"a.go"', false), finish("canceled")]),
          message("assistant", [text("Writing it"), finish("permission_denied", { message: "User denied permission" })]),
          message("assistant", [text("Done"), finish("toString")]),
        ],
      }),
    );
    expect(thread.turns.map((t) => t.content)).toEqual([
      "[error] API Error: 400 Bad Request",
      "I can't\n\n[refused] Refused",
      'Start\n\n[edit] {"file_path":"a.go"\n\n[canceled]',
      "Writing it\n\n[permission denied] User denied permission",
      "Done",
    ]);
    expect(thread.turns[0]!.metadata?.finish).toMatchObject({ reason: "error", message: "API Error", details: "400 Bad Request" });
    expect(partsOf(thread, "tool_call")).toEqual([
      { type: "tool_call", id: "c1", name: "edit", arguments: '{"file_path":"a.go"', unfinished: true },
    ]);
  });

  it("attachments, pasted images and bang-mode shell commands: names and types kept, bytes never", () => {
    const png = Buffer.from("not really a png").toString("base64");
    const thread = onlyThread(
      parse({
        session: session(),
        messages: [
          message("user", [
            text("What is in these?"),
            { type: "binary", data: { Path: "/home/ada/shot.png", MIMEType: "image/png", Data: png } },
            { type: "binary", data: { Path: "notes.md", MIMEType: "text/markdown", Data: Buffer.from("# notes").toString("base64") } },
            { type: "image_url", data: { url: "data:image/jpeg;base64,AAAA" } },
            { type: "image_url", data: { url: "https://example.com/a.png", detail: "high" } },
            { type: "shell_command", data: { command: "go test ./...", output: "ok shop 0.2s", exit_code: 0 } },
            stop(),
          ]),
        ],
      }),
    );
    const turn = thread.turns[0]!;
    expect(turn.content).toBe("What is in these?\n\n$ go test ./...\nok shop 0.2s\n(exit code 0)");
    expect(turn.files).toEqual(["notes.md"]);
    expect(turn.images).toEqual(["/home/ada/shot.png", "image", "https://example.com/a.png"]);
    expect(turn.parts).toEqual([
      { type: "text", text: "What is in these?" },
      { type: "image", mediaType: "image/png", alt: "/home/ada/shot.png" },
      { type: "image", dataUrlChars: 27, alt: "image pasted into the prompt" },
      { type: "image", url: "https://example.com/a.png", detail: "high", alt: "https://example.com/a.png" },
      { type: "text", text: "$ go test ./...\nok shop 0.2s\n(exit code 0)", shellCommand: { command: "go test ./...", exitCode: 0 } },
    ]);
    expect(turn.metadata).toEqual({
      otherParts: [
        {
          type: "attachments",
          data: [
            { path: "/home/ada/shot.png", mimeType: "image/png", dataChars: png.length },
            { path: "notes.md", mimeType: "text/markdown", dataChars: 12 },
          ],
        },
      ],
    });
    expect(JSON.stringify(thread)).not.toContain(png);
  });

  it("a result's media is not kept (its length is), an edit's diff is, and encrypted reasoning is only counted", () => {
    const thread = onlyThread(
      parse({
        session: session(),
        messages: [
          message("assistant", [
            { type: "reasoning", data: { thinking: "", responses_data: { encrypted_content: "gAAAA" } } },
            call("c1", "view", '{"file_path":"a.png"}'),
            call("c2", "edit", '{"file_path":"a.go"}'),
          ]),
          message("tool", [
            result("c1", "Image read", { data: "iVBORw0KGgo=", mime_type: "image/png" }),
            result("c2", "edited", { metadata: '{"diff":"--- a.go\\n+++ a.go\\n@@ -1 +1 @@\\n-a\\n+b\\n","additions":1}' }),
          ]),
        ],
      }),
    );
    expect(partsOf(thread, "thinking")).toEqual([
      { type: "thinking", text: "", redacted: true, opaqueChars: '{"encrypted_content":"gAAAA"}'.length },
    ]);
    expect(partsOf(thread, "tool_result")).toEqual([
      { type: "tool_result", toolCallId: "c1", content: "Image read", isError: false, mimeType: "image/png", dataChars: 12 },
      {
        type: "tool_result",
        toolCallId: "c2",
        content: "edited",
        isError: false,
        diff: "--- a.go\n+++ a.go\n@@ -1 +1 @@\n-a\n+b\n",
        metadata: { diff: "--- a.go\n+++ a.go\n@@ -1 +1 @@\n-a\n+b\n", additions: 1 },
      },
    ]);
    expect(JSON.stringify(thread)).not.toContain("iVBORw0KGgo=");
    expect(JSON.stringify(thread)).not.toContain("gAAAA");
  });

  it("a part type this importer does not know is kept in metadata, out of the text", () => {
    const thread = onlyThread(
      parse({ session: session(), messages: [message("assistant", [text("hi"), { type: "hologram", data: { x: 1 } }])] }),
    );
    expect(thread.turns[0]!.content).toBe("hi");
    expect(thread.turns[0]!.metadata?.otherParts).toEqual([{ type: "hologram", data: { x: 1 } }]);
  });
});

describe("compaction", () => {
  it("a summary message (is_summary_message) is a compaction marker whose content is the summary", () => {
    const summary = message(
      "assistant",
      [{ type: "reasoning", data: { thinking: "What matters so far" } }, text("## Summary\nWe fixed the retry."), finish("end_turn")],
      { is_summary_message: 1 },
    );
    const after = message("user", [text("The previous session was interrupted because it got too long"), stop()]);
    const thread = onlyThread(
      parse({ session: session({ summary_message_id: summary.id }), messages: [message("user", [text("go"), stop()]), summary, after] }),
    );
    const marker = thread.turns[1]!;
    expect(marker).toMatchObject({
      key: summary.id,
      role: "system",
      content: "## Summary\nWe fixed the retry.",
      compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
      modelName: "claude-sonnet-4-5",
      modelProvider: "anthropic",
    });
    expect(marker.parts).toEqual([
      { type: "compaction", trigger: null },
      { type: "thinking", text: "What matters so far" },
    ]);
    expect(marker.metadata).toMatchObject({ summaryMessage: true });
    expect(thread.metadata).toMatchObject({ summaryMessageId: summary.id });
    expect(thread.turns[2]!.role).toBe("user");
  });

  it("an older database (no is_summary_message column) names its summary by the session's summary_message_id", () => {
    const { is_summary_message: _gone, ...summary } = message("assistant", [text("Summary of it all"), finish("end_turn")]);
    const { is_summary_message: _also, ...reply } = message("assistant", [text("Not a summary"), finish("end_turn")]);
    const thread = onlyThread(parse({ session: session({ summary_message_id: summary.id }), messages: [summary, reply] }));
    expect(thread.turns.map((t) => [t.role, !!t.compaction])).toEqual([
      ["system", true],
      ["assistant", false],
    ]);
  });
});

describe("sub-agents", () => {
  it("a child session is a sub-agent of its parent, tied to the call its id names", () => {
    const child = onlyThread(
      parse({
        session: session({ id: "m042$$toolu_01Agent", parent_session_id: "parent-1", title: "New Agent Session" }),
        messages: [message("user", [text("Find where retries are configured"), stop()])],
      }),
    );
    expect(child.parentKey).toBe("parent-1");
    expect(child.relation).toEqual({ kind: "subagent", toolCallId: "toolu_01Agent", agentId: "m042$$toolu_01Agent" });
    expect(child.metadata).toMatchObject({ parentSessionId: "parent-1" });
  });

  it("the call's id from the child's: <message>$$<call> now, the call id itself before October 2025, none for a title session", () => {
    expect(toolCallOfChild("6f1c$$call_abc")).toBe("call_abc");
    expect(toolCallOfChild("call_VyHTcdqBo1dcdRbQ7YqsVFRf")).toBe("call_VyHTcdqBo1dcdRbQ7YqsVFRf");
    expect(toolCallOfChild("title-5b0c8f57-1d2e-4a4b-9b7e-2f6f0c9e1a01")).toBeNull();
    expect(toolCallOfChild("a$$b$$c")).toBeNull();
  });
});

describe("times", () => {
  it("Unix seconds as Crush writes them; milliseconds and numeric text read too; nonsense is null", () => {
    expect(crushTime(T0)).toBe("2025-08-09T03:11:00.000Z");
    expect(crushTime(T0 * 1000)).toBe("2025-08-09T03:11:00.000Z");
    expect(crushTime(String(T0))).toBe("2025-08-09T03:11:00.000Z");
    for (const bad of [0, -5, null, undefined, "yesterday", Number.NaN]) expect(crushTime(bad as never)).toBeNull();
  });

  it("a database written in milliseconds gives the same times", () => {
    const ms = onlyThread(
      parse({
        session: session({ created_at: T0 * 1000, updated_at: (T0 + 60) * 1000 }),
        messages: [message("user", [text("hi")], { created_at: (T0 + 5) * 1000 })],
      }),
    );
    expect([ms.createdAt, ms.lastUpdatedAt, ms.turns[0]!.timestamp]).toEqual([
      "2025-08-09T03:11:00.000Z",
      "2025-08-09T03:12:00.000Z",
      "2025-08-09T03:11:05.000Z",
    ]);
  });
});

describe("bad records", () => {
  it("are skipped with their JSON path and why; the rest is read", () => {
    const good = message("user", [text("still here")]);
    const bad = message("assistant", [text("ok"), { type: "text" } as unknown as Part, { data: {} } as unknown as Part]);
    const result = parse({
      session: session({ todos: '[{"content":"fix","status":"pending","active_form":"Fixing"}]' }),
      messages: [
        "not a row",
        { role: "user", parts: "[]" },
        message("narrator", []),
        message("user", [], { parts: "[{" }),
        message("user", [], { parts: '{"type":"text"}' }),
        good,
        bad,
      ],
    });
    expect(result.skipped).toEqual([
      { path: "messages[0]", reason: "not a message row" },
      { path: "messages[1]", reason: "message without an id" },
      { path: "messages[2]", reason: expect.stringContaining('unknown role "narrator"') },
      { path: "messages[3]", reason: expect.stringContaining("parts that are not valid JSON") },
      { path: "messages[4]", reason: expect.stringContaining("parts that are not a JSON list") },
      { path: "messages[6].parts[1]", reason: `message ${bad.id}: text part without a data object` },
      { path: "messages[6].parts[2]", reason: `message ${bad.id}: not a part: no type` },
    ]);
    const thread = onlyThread(result);
    expect(thread.turns.map((t) => t.content)).toEqual(["still here", "ok"]);
    expect(thread.metadata?.todos).toEqual([{ content: "fix", status: "pending", active_form: "Fixing" }]);
  });

  it("a document that is no Crush session is refused whole, naming what is missing", () => {
    expect(() => parseCrushSession([], { name: "x" })).toThrow(ImportFormatError);
    expect(() => parseCrushSession({ messages: [] }, { name: "x" })).toThrow("x: not a Crush session: no `session` object");
    expect(() => parseCrushSession({ session: { id: "" }, messages: [] }, { name: "x" })).toThrow("`session.id` is missing");
    expect(() => parseCrushSession({ session: { id: "s" } }, { name: "x" })).toThrow("`messages` is not a list");
  });
});
