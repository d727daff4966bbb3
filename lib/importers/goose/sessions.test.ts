import { describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { expectPaired, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError } from "../types";
import { parseGooseSession, type GooseSessionDocument } from "./index";

type Row = GooseSessionDocument["messages"][number];
let rowId = 0;
const T0 = 1_768_381_200; // 2026-01-14T09:00:00Z

function row(role: string, content: unknown[], metadata: Record<string, unknown> = {}, extra: Partial<Row> = {}): Row {
  rowId += 1;
  return {
    row: rowId,
    message_id: `msg_${rowId}`,
    role,
    created_timestamp: T0 + rowId,
    content: content as Row["content"],
    metadata: { userVisible: true, agentVisible: true, ...metadata } as Row["metadata"],
    ...extra,
  };
}

function doc(session: Record<string, unknown>, messages: Row[], extra: Partial<GooseSessionDocument> = {}): GooseSessionDocument {
  return {
    goose: "sessions.db",
    schemaVersion: 17,
    session: { id: "20260114_1", name: "", working_dir: "/work/app", session_type: "user", ...session } as GooseSessionDocument["session"],
    messages,
    ...extra,
  };
}

const parse = (d: unknown) => parseGooseSession(d, { name: "sessions.db#20260114_1" });
const text = (t: string) => ({ type: "text", text: t });
const request = (id: string, name: string, args: unknown) => ({
  type: "toolRequest",
  id,
  toolCall: { status: "success", value: { name, arguments: args } },
});
const response = (id: string, items: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "toolResponse",
  id,
  toolResult: { status: "success", value: { content: items, isError: false, ...extra } },
});
const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0, cost?: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  ...(cacheReadTokens ? { cacheReadTokens } : {}),
  ...(cacheWriteTokens ? { cacheWriteTokens } : {}),
  ...(cost !== undefined ? { cost, costSource: "estimated" } : {}),
});

describe("a sessions.db session", () => {
  it("is one thread keyed by the session id: name as title, working_dir as project, goose's session fields as metadata", () => {
    const thread = onlyThread(
      parse(
        doc(
          {
            name: "Fix the date test",
            created_at: "2026-01-14 09:00:00",
            updated_at: "2026-01-14 09:05:00",
            provider_name: "openai",
            model_config: { model_name: "gpt-5", context_limit: 400000, request_params: { secret: "kept out" } },
            goose_mode: "smart_approve",
            extension_data: {
              "enabled_extensions.v0": { extensions: [{ type: "stdio", name: "github", envs: { GITHUB_TOKEN: "ghp_secret" } }] },
            },
            recipe: { title: "Triage", description: "Triage a bug", instructions: "long" },
            input_tokens: 900,
            output_tokens: 30,
            total_tokens: 930,
          },
          [row("user", [text("why?")])],
        ),
      ),
    );
    expect(thread).toMatchObject({
      key: "20260114_1",
      title: "Fix the date test",
      toolName: "goose",
      project: "/work/app",
      createdAt: "2026-01-14T09:00:00.000Z",
      lastUpdatedAt: "2026-01-14T09:05:00.000Z",
    });
    expect(thread.metadata).toMatchObject({
      sessionType: "user",
      providerName: "openai",
      modelConfig: { modelName: "gpt-5", contextLimit: 400000 },
      gooseMode: "smart_approve",
      extensions: ["github"],
      recipe: { title: "Triage", description: "Triage a bug" },
      lastUsage: { inputTokens: 900, outputTokens: 30, totalTokens: 930 },
      schemaVersion: 17,
    });
    // Extension configurations (env values) and request params are never kept.
    expect(JSON.stringify(thread.metadata)).not.toContain("ghp_secret");
    expect(JSON.stringify(thread.metadata)).not.toContain("kept out");
    expect(thread.parentKey).toBeUndefined();
  });

  it("titles an unnamed session by its first prompt the user saw", () => {
    const thread = onlyThread(
      parse(doc({}, [row("user", [text("hidden")], { userVisible: false }), row("user", [text("  Make   the build green  ")])])),
    );
    expect(thread.title).toBe("Make the build green");
  });

  it("pairs tool requests with the results goose puts in user messages, as tool turns", () => {
    const thread = onlyThread(
      parse(
        doc({}, [
          row("user", [text("run the tests")]),
          row("assistant", [
            { type: "thinking", thinking: "plan", signature: "sig" },
            text("Running."),
            request("call_1", "developer__shell", { command: "npm test" }),
          ]),
          row("user", [
            response("call_1", [
              { type: "text", text: "2 passed", annotations: { audience: ["assistant"] } },
              { type: "text", text: "$ npm test\n2 passed", annotations: { audience: ["user"], priority: 0 } },
            ]),
          ]),
          row("assistant", [
            request("call_2", "developer__text_editor", { command: "view", path: "a.ts" }),
            {
              type: "frontendToolRequest",
              id: "call_3",
              toolCall: { status: "success", value: { name: "browser__open", arguments: null } },
            },
          ]),
          row("user", [
            { type: "toolResponse", id: "call_2", toolResult: { status: "error", error: "-32603: no such file" } },
            { type: "toolResponse", id: "call_3", toolResult: { status: "success", value: [{ type: "text", text: "opened" }] } },
          ]),
          row("assistant", [{ type: "toolRequest", id: "call_4", toolCall: { status: "error", error: "-32602: bad JSON" } }]),
          row("user", [response("call_4", [text("could not parse")], { isError: true })]),
        ]),
      ),
    );
    expect(thread.turns.map((t) => t.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"]);
    expect(expectPaired(thread)).toBe(4);
    const [think, said, call] = thread.turns[1]!.parts!;
    expect(think).toEqual({ type: "thinking", text: "plan" });
    expect(said).toEqual({ type: "text", text: "Running." });
    expect(call).toEqual({ type: "tool_call", id: "call_1", name: "developer__shell", arguments: { command: "npm test" } });
    // The result is what the model saw; the text for the user alone is kept beside it.
    expect(thread.turns[2]!.parts![0]).toEqual({
      type: "tool_result",
      toolCallId: "call_1",
      content: "2 passed",
      userText: "$ npm test\n2 passed",
    });
    expect(thread.turns[3]!.parts![1]).toMatchObject({ type: "tool_call", id: "call_3", name: "browser__open", frontend: true });
    const results = partsOf(thread, "tool_result");
    expect(results[1]).toMatchObject({ toolCallId: "call_2", content: "-32603: no such file", isError: true });
    expect(results[2]).toMatchObject({ toolCallId: "call_3", content: "opened" });
    expect(results[3]).toMatchObject({ toolCallId: "call_4", content: "could not parse", isError: true });
    expect(thread.turns[5]!.parts![0]).toMatchObject({
      type: "tool_call",
      id: "call_4",
      name: "(invalid tool call)",
      error: "-32602: bad JSON",
    });
    expect(thread.turns[1]!.content).toBe('Running.\n\n[developer__shell] {"command":"npm test"}');
  });

  it("takes each reply's model from its inference metadata, else the session's provider and model", () => {
    const thread = onlyThread(
      parse(
        doc({ provider_name: "anthropic", model_config: { model_name: "claude-sonnet-4-5" } }, [
          row("user", [text("hi")]),
          row("assistant", [text("old reply")]),
          row("assistant", [text("new reply")], {
            inference: { provider: "openrouter", requestedModel: "gpt-5", resolvedModel: "openai/gpt-5-2025" },
          }),
          row("assistant", [text("asked only")], { inference: { provider: "openai", requestedModel: "gpt-5-mini" } }),
        ]),
      ),
    );
    expect(thread.turns.slice(1).map((t) => [t.modelProvider, t.modelName])).toEqual([
      ["anthropic", "claude-sonnet-4-5"],
      ["openrouter", "openai/gpt-5-2025"],
      ["openai", "gpt-5-mini"],
    ]);
  });

  it("counts each reply's own usage once, its input without cache reads and writes, goose's cost as reported", () => {
    const warnings: string[] = [];
    const result = parse(
      doc({}, [
        row("user", [text("hi")]),
        row("assistant", [text("a")], { usage: { ...usage(12_000, 200, 9_000, 2_500, 0.0123), elapsedMs: 900 } }),
        row("assistant", [text("b")], { usage: usage(100, 5, 150) }),
      ]),
    );
    warnings.push(...result.warnings);
    const thread = onlyThread(result);
    expect(thread.turns[1]!.usage).toEqual({
      inputTokens: 500,
      cacheReadTokens: 9_000,
      cacheWriteTokens: 2_500,
      outputTokens: 200,
      reportedCostUsd: 0.0123,
    });
    expect(thread.turns[1]!.metadata).toMatchObject({ usage: { totalTokens: 12_200, costSource: "estimated", elapsedMs: 900 } });
    // Fewer input tokens than cache reads: uncached input counted as 0, and said.
    expect(thread.turns[2]!.usage).toEqual({ inputTokens: 0, cacheReadTokens: 150, outputTokens: 5 });
    expect(warnings.join("\n")).toMatch(/message msg_\d+: inputTokens \(100\) are fewer than its cache reads and writes \(150\)/);
    // No accumulated totals: no session totals.
    expect(thread.metadata?.sessionTotals).toBeUndefined();
  });

  it("keeps what the session's totals count beyond its messages as session totals, and estimates no reply they cover", () => {
    const session = {
      model_config: { model_name: "claude-sonnet-4-5" },
      updated_at: "2026-01-14 10:00:00",
      accumulated_input_tokens: 30_000,
      accumulated_output_tokens: 900,
      accumulated_total_tokens: 30_900,
      accumulated_cache_read_tokens: 12_000,
      accumulated_cache_write_tokens: 3_000,
      accumulated_cost: 0.5,
    };
    const thread = onlyThread(
      parse(
        doc(session, [
          row("user", [text("hi")]),
          row("assistant", [text("before usage was recorded")]),
          row("assistant", [text("with usage")], { usage: usage(10_000, 300, 8_000, 1_000, 0.02) }),
        ]),
      ),
    );
    const totals = sessionTotalsOf(thread.metadata);
    expect(totals).toMatchObject({ source: "goose session totals", reports: 1, reportedAt: "2026-01-14T10:00:00.000Z" });
    expect(totals!.models).toEqual({
      "claude-sonnet-4-5": {
        requests: 0,
        premiumRequests: 0,
        reportedInputTokens: 20_000,
        inputTokens: 20_000 - 4_000 - 2_000,
        cacheReadTokens: 4_000,
        cacheWriteTokens: 2_000,
        outputTokens: 600,
        reasoningTokens: 0,
      },
    });
    expect(thread.turns[1]!.usage).toBeUndefined();
    expect(thread.turns[1]!.metadata).toMatchObject({ usageIn: "sessionTotals" });
    expect(thread.turns[2]!.metadata?.usageIn).toBeUndefined();
    expect(thread.metadata?.accumulated).toEqual({
      inputTokens: 30_000,
      outputTokens: 900,
      totalTokens: 30_900,
      cacheReadTokens: 12_000,
      cacheWriteTokens: 3_000,
      costUsd: 0.5,
    });
  });

  it("has no session totals when the messages' usage accounts for all of the session's", () => {
    const thread = onlyThread(
      parse(
        doc({ accumulated_input_tokens: 1_000, accumulated_output_tokens: 50 }, [
          row("user", [text("hi")]),
          row("assistant", [text("a")], { usage: usage(600, 30) }),
          row("assistant", [text("b")], { usage: usage(400, 20) }),
        ]),
      ),
    );
    expect(thread.metadata?.sessionTotals).toBeUndefined();
    expect(thread.turns.every((t) => t.metadata?.usageIn === undefined)).toBe(true);
  });

  it("makes goose's compaction one marker: the agent-only summary after the hidden history, its continuation folded in", () => {
    const hidden = { agentVisible: false };
    const agentOnly = { userVisible: false, agentVisible: true };
    const thread = onlyThread(
      parse(
        doc({}, [
          row("user", [text("first")], hidden),
          row("assistant", [text("answer")], hidden),
          row("user", [text("## Summary\nThe user asked; the agent answered.")], agentOnly),
          row("assistant", [text("Your context was compacted at the user's request. The previous message contains a summary.")], agentOnly),
          row("user", [text("next question")], hidden),
          row("assistant", [text("next answer")], hidden),
          row("user", [text("Summary two")], agentOnly),
          row(
            "assistant",
            [text("Your context was compacted. The previous message contains a summary of the conversation so far.")],
            agentOnly,
          ),
          row("user", [text("go on")]),
          // An agent-only message that follows visible history is no compaction.
          row("assistant", [text("an agent-only note")], agentOnly),
        ]),
      ),
    );
    expect(thread.turns.map((t) => t.role)).toEqual(["user", "assistant", "system", "user", "assistant", "system", "user", "assistant"]);
    const [first, second] = thread.turns.filter((t) => t.compaction);
    expect(first).toMatchObject({
      role: "system",
      content: "## Summary\nThe user asked; the agent answered.",
      parts: [{ type: "compaction", trigger: "manual" }],
      compaction: { trigger: "manual", tokensBefore: null, tokensAfter: null },
      metadata: { userVisible: false, summaryRole: "user" },
    });
    expect(String(first!.metadata!.continuation)).toMatch(/^Your context was compacted at the user's request/);
    expect(second).toMatchObject({ content: "Summary two", compaction: { trigger: "auto" } });
    // The history the summary replaced stays, marked hidden from the agent.
    expect(thread.turns[0]!.metadata).toMatchObject({ agentVisible: false });
    expect(thread.turns[7]!).toMatchObject({ role: "assistant", content: "an agent-only note", metadata: { userVisible: false } });
    expect(thread.turns[7]!.compaction).toBeUndefined();
  });

  it("makes an older build's conversationCompacted block a marker, and a message of notices a system turn", () => {
    const thread = onlyThread(
      parse(
        doc({}, [
          row("user", [text("hi")]),
          row("assistant", [{ type: "conversationCompacted", msg: "Conversation compacted and summarized" }]),
          row("assistant", [{ type: "systemNotification", notificationType: "inlineMessage", msg: "Compacting…" }], {
            agentVisible: false,
          }),
          row("assistant", [{ type: "error", kind: "contextLengthExceeded", message: "The conversation is too long." }]),
          row("assistant", [
            {
              type: "actionRequired",
              data: { actionType: "toolConfirmation", id: "c1", toolName: "developer__shell", arguments: {}, prompt: "Run rm?" },
            },
          ]),
          row("assistant", [text("Working on it."), { type: "systemNotification", notificationType: "thinkingMessage", msg: "thinking…" }]),
        ]),
      ),
    );
    expect(thread.turns.map((t) => [t.role, t.content])).toEqual([
      ["user", "hi"],
      ["system", "Conversation compacted and summarized"],
      ["system", "Compacting…"],
      ["system", "The conversation is too long."],
      ["system", "Confirm developer__shell: Run rm?"],
      ["assistant", "Working on it."],
    ]);
    expect(thread.turns[1]!.compaction).toEqual({ trigger: null, tokensBefore: null, tokensAfter: null });
    expect(thread.turns[3]!.metadata).toMatchObject({
      notices: [{ kind: "error", errorKind: "contextLengthExceeded" }],
      role: "assistant",
    });
    expect(thread.turns[5]!.metadata).toMatchObject({ notices: [{ kind: "thinkingMessage", text: "thinking…" }] });
    // A notice is no reply: no model, so no usage estimated for it.
    expect(thread.turns[3]!.modelName).toBeUndefined();
  });

  it("keeps images by type and size, redacted thinking and documents as marks, and unknown blocks by name", () => {
    const result = parse(
      doc({}, [
        row("user", [
          text("look"),
          { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
          { type: "document", data: "JVBERi0=", mimeType: "application/pdf", name: "spec.pdf" },
        ]),
        row("assistant", [
          { type: "redactedThinking", data: "opaque" },
          { type: "reasoning", text: "old reasoning" },
          text("ok"),
          { type: "hologram", payload: 1 },
        ]),
      ]),
    );
    const thread = onlyThread(result);
    expect(thread.turns[0]!.parts).toEqual([
      { type: "text", text: "look" },
      { type: "image", mediaType: "image/png", bytes: 8 },
    ]);
    expect(thread.turns[0]!.content).toBe("look\n\n[document spec.pdf (application/pdf)]");
    expect(thread.turns[0]!.metadata).toMatchObject({ documents: [{ name: "spec.pdf", mimeType: "application/pdf", bytes: 8 }] });
    expect(JSON.stringify(thread)).not.toContain("aGVsbG8=");
    expect(thread.turns[1]!.parts).toEqual([
      { type: "thinking", text: "[redacted thinking]", redacted: true },
      { type: "thinking", text: "old reasoning" },
      { type: "text", text: "ok" },
    ]);
    expect(thread.turns[1]!.metadata).toMatchObject({ unknownContent: ["hologram"] });
    expect(result.warnings.join("\n")).toContain("hologram");
  });

  it("is a sub-agent thread of its parent_session_id, tied by agentId to the delegate call whose result names it", () => {
    const child = onlyThread(
      parse(
        doc({ id: "20260114_2", session_type: "sub_agent", parent_session_id: "20260114_1", name: "Delegated task" }, [
          row("user", [text("find it")]),
        ]),
      ),
    );
    expect(child).toMatchObject({
      key: "20260114_2",
      parentKey: "20260114_1",
      relation: { kind: "subagent", toolCallId: null, agentId: "20260114_2" },
    });
    // An older database without the column: the session whose delegate call named it.
    const older = onlyThread(
      parse(
        doc({ id: "20260114_5", session_type: "sub_agent" }, [row("user", [text("x")])], { schemaVersion: 13, linkedParent: "20260114_4" }),
      ),
    );
    expect(older).toMatchObject({ parentKey: "20260114_4", relation: { kind: "subagent", agentId: "20260114_5" } });
    const parent = onlyThread(
      parse(
        doc({}, [
          row("assistant", [request("toolu_9", "summon__delegate", { instructions: "find it" })]),
          row("user", [response("toolu_9", [text("found")], { _meta: { subagent_session_id: "20260114_2" } })]),
        ]),
      ),
    );
    expect(partsOf(parent, "tool_result")[0]).toEqual({
      type: "tool_result",
      toolCallId: "toolu_9",
      content: "found",
      agentId: "20260114_2",
    });
  });

  it("skips a row of another role or whose content is no list, keys repeated message ids apart, reads millisecond times", () => {
    const repeated = row("assistant", [text("again")]);
    const result = parse(
      doc({}, [
        row("user", [text("a")], {}, { message_id: "msg_same" }),
        row("system", [text("not goose's")]),
        row("assistant", { not: "a list" } as unknown as unknown[]),
        { ...repeated, message_id: "msg_same", created_timestamp: 1_768_381_260_000 },
        row("user", [text("no id")], {}, { message_id: null }),
      ]),
    );
    const thread = onlyThread(result);
    expect(result.skipped).toEqual([
      { path: "messages[1]", reason: expect.stringContaining('role "system"') },
      { path: "messages[2]", reason: expect.stringContaining("content_json is not a list") },
    ]);
    expect(thread.turns.map((t) => t.key)).toEqual(["msg_same", "msg_same#2", `row:${rowId}`]);
    expect(thread.turns[1]!.timestamp).toBe("2026-01-14T09:01:00.000Z");
  });

  it("refuses a document that is no goose session, or of a schema version newer than it knows", () => {
    expect(() => parse({ goose: "sessions.db", schemaVersion: 17, session: {}, messages: [] })).toThrow(
      /not a Goose session: no session id/,
    );
    expect(() => parse([])).toThrow(ImportFormatError);
    expect(() => parse(doc({}, [], { schemaVersion: 18 }))).toThrow(/schema version 18; this reader knows versions up to 17/);
  });
});
