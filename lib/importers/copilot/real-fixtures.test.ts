// Both real Copilot CLI sessions, checked against counts read from the raw files here with plain
// code (never with the parser).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { detectFormat, numberedLines } from "../index";
import { parseCopilotEvents, parseCopilotLegacy } from "./index";
import { EVENTS_FILE, LEGACY_FILE, expectPaired, onlyThread, partsOf, roleCounts } from "./test-helpers";

type RawEvent = { type: string; id: string; timestamp: string; data: Record<string, any> };

describe("real fixture: events.jsonl (Copilot CLI 1.0.34)", () => {
  const text = readFileSync(EVENTS_FILE, "utf8");
  const raw: RawEvent[] = text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  const ofType = (type: string) => raw.filter((e) => e.type === type);
  const result = parseCopilotEvents(numberedLines(text), { name: EVENTS_FILE });
  const thread = onlyThread(result);

  it("is detected by content and gives one thread keyed by session.start's sessionId", () => {
    expect(detectFormat(EVENTS_FILE, text).format).toBe("copilot");
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    const startData = ofType("session.start")[0]!.data;
    expect(thread.key).toBe(startData.sessionId);
    expect(thread.project).toBe(startData.context.cwd);
    expect(thread.metadata).toMatchObject({
      branch: startData.context.branch,
      repository: startData.context.repository,
      headCommit: startData.context.headCommit,
      copilotVersion: "1.0.34",
    });
    expect(thread.createdAt).toBe(startData.startTime);
    expect(thread.lastUpdatedAt).toBe(raw.at(-1)!.timestamp);
    const firstTyped = ofType("user.message").find((e) => e.data.content.trim() !== "")!;
    // The typed prompt, cut at the last word boundary within 100 characters, with "…".
    expect(firstTyped.data.content.replace(/\s+/g, " ").startsWith("請不要修改任何代碼 我希望你幫我調查一下")).toBe(true);
    expect(thread.title).toBe(
      "請不要修改任何代碼 我希望你幫我調查一下 有沒有好一點的自動生成文檔可以給這個 rust 專案 例如 python 可以透過 zensical 或 mkdostrings 之類的來做自動產生文檔網頁…",
    );
  });

  it("has one turn per user message, assistant message, tool completion and info notice, keyed by event id", () => {
    expect(roleCounts(thread)).toEqual({
      user: ofType("user.message").length, // 2
      assistant: ofType("assistant.message").length, // 6
      tool: ofType("tool.execution_complete").length, // 11
      system: ofType("session.info").length, // 1
    });
    const turnEvents = raw.filter((e) => ["user.message", "assistant.message", "tool.execution_complete", "session.info"].includes(e.type));
    expect(thread.turns.map((t) => t.key)).toEqual(turnEvents.map((e) => e.id));
    expect(thread.turns.map((t) => t.timestamp)).toEqual(turnEvents.map((e) => e.timestamp));
  });

  it("keeps the system prompt once and counts its identical re-emission", () => {
    const system = ofType("system.message");
    expect(system).toHaveLength(2);
    expect(system[1]!.data.content).toBe(system[0]!.data.content);
    expect(thread.initialContext).toEqual({ instructions: system[0]!.data.content });
    expect(thread.metadata?.systemMessages).toMatchObject({ count: 2, repeatsOfThePrompt: 1 });
    expect(thread.turns.some((t) => t.content === system[0]!.data.content)).toBe(false);
  });

  it("pairs every tool request with its execution result", () => {
    const requested = ofType("assistant.message").flatMap((e) => e.data.toolRequests.map((r: { toolCallId: string }) => r.toolCallId));
    const completed = ofType("tool.execution_complete").map((e) => e.data.toolCallId);
    expect(requested).toHaveLength(11);
    expect([...completed].sort()).toEqual([...requested].sort());
    expect(expectPaired(thread)).toBe(requested.length);
    const calls = partsOf(thread, "tool_call");
    expect(calls.map((c) => (c.type === "tool_call" ? c.id : ""))).toEqual(requested);
    const failures = ofType("tool.execution_complete").filter((e) => e.data.success === false).length;
    expect(partsOf(thread, "tool_result").filter((p) => p.type === "tool_result" && p.isError)).toHaveLength(failures);
    // The model-facing result is the content; what the terminal showed is kept beside it.
    const view = ofType("tool.execution_complete").find((e) => e.data.result.detailedContent !== e.data.result.content)!;
    const part = partsOf(thread, "tool_result").find((p) => p.type === "tool_result" && p.toolCallId === view.data.toolCallId)!;
    expect(part).toMatchObject({ content: view.data.result.content, detailedContent: view.data.result.detailedContent });
    // MCP web searches name their server on the result (from tool.execution_start).
    const mcp = ofType("tool.execution_start").filter((e) => e.data.mcpServerName).length;
    expect(partsOf(thread, "tool_result").filter((p) => p.mcpServerName === "github-mcp-server")).toHaveLength(mcp);
  });

  it("shows reasoningText as thinking, never reasoningOpaque, and keeps outputTokens per message without inventing usage", () => {
    const withReasoning = ofType("assistant.message").filter((e) => e.data.reasoningText);
    expect(partsOf(thread, "thinking")).toHaveLength(withReasoning.length);
    const assistants = thread.turns.filter((t) => t.role === "assistant");
    expect(assistants.every((t) => t.usage == null)).toBe(true);
    expect(assistants.map((t) => t.metadata?.outputTokens)).toEqual(ofType("assistant.message").map((e) => e.data.outputTokens));
    const opaque = ofType("assistant.message")
      .map((e) => e.data.reasoningOpaque)
      .filter(Boolean) as string[];
    expect(opaque.length).toBeGreaterThan(0);
    expect(JSON.stringify(thread.turns)).not.toContain(opaque[0]!.slice(0, 40));
    // The model from session.model_change, on every assistant turn.
    expect(new Set(assistants.map((t) => t.modelName))).toEqual(new Set([ofType("session.model_change").at(-1)!.data.newModel]));
  });

  it("records the shutdown's per-model totals as session totals, input without cache", () => {
    const shutdowns = ofType("session.shutdown");
    expect(shutdowns).toHaveLength(1);
    const totals = sessionTotalsOf(thread.metadata);
    expect(totals).not.toBeNull();
    const expected: Record<string, object> = {};
    for (const s of shutdowns) {
      for (const [model, m] of Object.entries<any>(s.data.modelMetrics)) {
        expected[model] = {
          requests: m.requests.count,
          premiumRequests: m.requests.cost,
          reportedInputTokens: m.usage.inputTokens,
          inputTokens: m.usage.inputTokens - m.usage.cacheReadTokens - m.usage.cacheWriteTokens,
          cacheReadTokens: m.usage.cacheReadTokens,
          cacheWriteTokens: m.usage.cacheWriteTokens,
          outputTokens: m.usage.outputTokens,
          reasoningTokens: m.usage.reasoningTokens,
        };
      }
    }
    expect(totals!.models).toEqual(expected);
    expect(totals!.models["claude-sonnet-4.6"]).toMatchObject({ inputTokens: 35071, cacheReadTokens: 151738, outputTokens: 2848 });
    expect(totals).toMatchObject({ reports: 1, premiumRequests: 2, apiDurationMs: 60470, reportedAt: shutdowns[0]!.timestamp });
    // The per-message outputTokens add up to the shutdown's output in this session.
    const perMessage = ofType("assistant.message").reduce((sum, e) => sum + e.data.outputTokens, 0);
    expect(perMessage).toBe(2848);
  });

  it("keeps mode and model changes, the task summary and the shutdown report in order in sessionEvents", () => {
    const kept = ["session.mode_changed", "session.model_change", "session.task_complete", "session.shutdown"];
    const events = thread.metadata?.sessionEvents as { type: string; line: number }[];
    expect(events.map((e) => e.type)).toEqual(raw.filter((e) => kept.includes(e.type)).map((e) => e.type));
  });
});

describe("real fixture: legacy history-session-state JSON", () => {
  const text = readFileSync(LEGACY_FILE, "utf8");
  const doc = JSON.parse(text);
  const result = parseCopilotLegacy(doc, { name: LEGACY_FILE });
  const thread = onlyThread(result);
  const messages: any[] = doc.chatMessages;
  const timeline: any[] = doc.timeline;

  it("is detected by content and gives one thread, one turn per chat message", () => {
    expect(detectFormat(LEGACY_FILE, text).format).toBe("copilot");
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread.key).toBe(doc.sessionId);
    expect(thread.createdAt).toBe(doc.startTime);
    const roles: Record<string, number> = {};
    for (const m of messages) roles[m.role] = (roles[m.role] ?? 0) + 1;
    expect(roleCounts(thread)).toEqual(roles); // user 1, assistant 7, tool 5
    expect(thread.turns.map((t) => t.key)).toEqual(messages.map((_, i) => `m${i}`));
  });

  it("pairs tool_calls with tool messages, arguments parsed from their JSON strings", () => {
    const calls = messages.flatMap((m) => m.tool_calls ?? []);
    expect(calls).toHaveLength(messages.filter((m) => m.role === "tool").length);
    expect(expectPaired(thread)).toBe(calls.length);
    const parts = partsOf(thread, "tool_call");
    expect(parts.map((p) => (p.type === "tool_call" ? p.arguments : null))).toEqual(calls.map((c) => JSON.parse(c.function.arguments)));
  });

  it("takes the typed prompt, reply times and tool results' times and status from the timeline", () => {
    const typed = timeline.find((e) => e.type === "user");
    const userTurn = thread.turns.find((t) => t.role === "user")!;
    expect(userTurn.content).toBe(typed.text);
    expect(userTurn.timestamp).toBe(typed.timestamp);
    expect(userTurn.metadata?.transformedContent).toBe(messages[0].content);
    expect(typed.text.replace(/\s+/g, " ").startsWith("專案經過了多輪跌代 可能會產生 - 為了向後兼容產生的代碼")).toBe(true);
    expect(thread.title).toBe(
      "專案經過了多輪跌代 可能會產生 - 為了向後兼容產生的代碼 - 記憶體占用過高 我希望你專注於優化記憶體占用, 讓記憶體占用降到最低 目前不知道為何 感覺軟體剛啟動時 記憶體佔用大約只有 1xMB…",
    );
    const completions = timeline.filter((e) => e.type === "tool_call_completed");
    for (const done of completions) {
      const turn = thread.turns.find(
        (t) => t.role === "tool" && t.parts?.some((p) => p.type === "tool_result" && p.toolCallId === done.callId),
      )!;
      expect(turn.timestamp).toBe(done.timestamp);
      expect(turn.parts![0]).toMatchObject({ isError: done.result.type !== "success", toolTitle: done.toolTitle });
    }
    const replies = timeline.filter((e) => e.type === "copilot").map((e) => e.timestamp);
    expect(thread.turns.filter((t) => t.role === "assistant" && t.parts?.some((p) => p.type === "text")).map((t) => t.timestamp)).toEqual(
      replies,
    );
    // Every timeline entry is used or kept: info notices in metadata, nothing unmatched.
    expect(thread.metadata?.notices).toHaveLength(timeline.filter((e) => e.type === "info").length);
    expect(thread.metadata?.unmatchedTimeline).toBeUndefined();
  });
});
