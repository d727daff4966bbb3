/**
 * Every real Pi session of the shared fixtures, checked against an independent reading of the raw
 * lines done here with plain JSON.parse: which entries make turns, their keys and roles, the tool
 * calls and their results, each reply's usage and pi's cost. Both real files are linear (one
 * branch), so every turn-making entry belongs to the main thread.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { numberedLines } from "../index";
import { parsePiSession } from "./index";
import { someFixtures } from "@/lib/testing/real-fixtures";

const ROOT = path.join(process.cwd(), "fixtures/real/pi/agent/sessions");
const FILES = someFixtures(
  readdirSync(ROOT).flatMap((dir) => readdirSync(path.join(ROOT, dir)).map((name) => path.join(ROOT, dir, name))),
  ROOT,
);
const V1 = FILES.find((f) => f.includes("ffae836b"))!;
const V3 = FILES.find((f) => f.includes("019e963d"))!;

type Raw = any;

/** The raw reading: each non-blank line parsed, with its 1-based line number. */
function rawEntries(file: string): { line: number; entry: Raw }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((text, i) => ({ text, line: i + 1 }))
    .filter(({ text }) => text.trim() !== "")
    .map(({ text, line }) => ({ line, entry: JSON.parse(text) }));
}

/** What the raw lines say the main thread holds: one turn per message, compaction, branch_summary and custom_message. */
function expectedFromRaw(file: string) {
  const [header, ...entries] = rawEntries(file);
  const v1 = header!.entry.version === undefined;
  const roleOf: Record<string, string> = {
    user: "user",
    assistant: "assistant",
    toolResult: "tool",
    bashExecution: "user",
    custom: "user",
  };
  const turning = entries.filter(({ entry }) => ["message", "compaction", "branch_summary", "custom_message"].includes(entry.type));
  const assistants = turning
    .filter(({ entry }) => entry.type === "message" && entry.message.role === "assistant")
    .map(({ entry }) => entry.message);
  const sum = (pick: (u: Raw) => number) => assistants.reduce((n, m) => n + pick(m.usage), 0);
  const calls = assistants.flatMap((m) => m.content.filter((b: Raw) => b.type === "toolCall").map((b: Raw) => b.id as string));
  const results = turning
    .filter(({ entry }) => entry.type === "message" && entry.message.role === "toolResult")
    .map(({ entry }) => entry.message.toolCallId as string);
  return {
    header: header!.entry,
    keys: turning.map(({ line, entry }) => (v1 ? String(line) : entry.id)),
    roles: turning.map(({ entry }) =>
      entry.type === "message" ? roleOf[entry.message.role] : entry.type === "custom_message" ? "user" : "system",
    ),
    calls,
    results,
    usage: {
      input: sum((u) => u.input),
      output: sum((u) => u.output),
      cacheRead: sum((u) => u.cacheRead),
      cacheWrite: sum((u) => u.cacheWrite),
      cost: sum((u) => u.cost.total),
    },
    aborted: assistants.filter((m) => m.stopReason === "aborted").length,
    thinking: assistants.reduce((n, m) => n + m.content.filter((b: Raw) => b.type === "thinking").length, 0),
    modelChanges: entries.filter(({ entry }) => entry.type === "model_change").length,
    thinkingChanges: entries.filter(({ entry }) => entry.type === "thinking_level_change").length,
    lines: entries.length,
  };
}

function parse(file: string) {
  return parsePiSession(numberedLines(readFileSync(file, "utf8")), { name: file });
}

describe.each(FILES.map((file) => [path.basename(file), file] as const))("real Pi session %s", (_name, file) => {
  const result = parse(file);
  const expected = expectedFromRaw(file);
  const [main] = result.threads;

  it("is one thread keyed by the header id, every line accounted for, nothing skipped", () => {
    expect(result.format).toBe("pi");
    expect(result.threads).toHaveLength(1);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(main!.key).toBe(expected.header.id);
    expect(main!.project).toBe(expected.header.cwd);
    expect(main!.toolName).toBe("pi");
    // Every entry line is a turn, or one of the setting changes listed in the thread's metadata, or a session name.
    const meta = main!.metadata as Raw;
    const sessionInfos = rawEntries(file).filter(({ entry }) => entry.type === "session_info").length;
    expect(main!.turns.length + (meta.modelChanges?.length ?? 0) + (meta.thinkingLevelChanges?.length ?? 0) + sessionInfos).toBe(
      expected.lines,
    );
    expect(meta.modelChanges?.length ?? 0).toBe(expected.modelChanges);
    expect(meta.thinkingLevelChanges?.length ?? 0).toBe(expected.thinkingChanges);
  });

  it("makes one turn per message, compaction and summary, keyed and in file order", () => {
    expect(main!.turns.map((t) => t.key)).toEqual(expected.keys);
    expect(main!.turns.map((t) => t.role)).toEqual(expected.roles);
  });

  it("pairs every tool call with its result", () => {
    const calls = main!.turns.flatMap((t) => (t.parts ?? []).flatMap((p) => (p.type === "tool_call" ? [p.id] : [])));
    const results = main!.turns.flatMap((t) => (t.parts ?? []).flatMap((p) => (p.type === "tool_result" ? [p.toolCallId] : [])));
    expect(calls).toEqual(expected.calls);
    expect(results).toEqual(expected.results);
    expect(new Set(results)).toEqual(new Set(calls));
  });

  it("keeps each reply's usage and pi's cost exactly", () => {
    const usages = main!.turns.filter((t) => t.role === "assistant").map((t) => t.usage!);
    const sum = (pick: (u: (typeof usages)[number]) => number | undefined) => usages.reduce((n, u) => n + (pick(u) ?? 0), 0);
    expect(sum((u) => u.inputTokens)).toBe(expected.usage.input);
    expect(sum((u) => u.outputTokens)).toBe(expected.usage.output);
    expect(sum((u) => u.cacheReadTokens)).toBe(expected.usage.cacheRead);
    expect(sum((u) => u.cacheWriteTokens)).toBe(expected.usage.cacheWrite);
    expect(sum((u) => u.reportedCostUsd)).toBeCloseTo(expected.usage.cost, 12);
    expect(main!.turns.filter((t) => t.metadata?.aborted === true)).toHaveLength(expected.aborted);
    expect(main!.turns.flatMap((t) => t.parts ?? []).filter((p) => p.type === "thinking")).toHaveLength(expected.thinking);
  });

  it("gives the same turns twice (stable keys for re-import)", () => {
    expect(parse(file)).toEqual(result);
  });
});

describe("the v1 fixture (branched, compacted, model switches)", () => {
  const [main] = parse(V1).threads;

  it("is a fork of the session it was branched from, at the last copied turn, its copies marked", () => {
    // header: branchedFrom ".../2025-12-09T00-52-54-397Z_d97339c6-6c10-4827-846b-9ff1d9c3dc37.jsonl"
    expect(main!.parentKey).toBe("d97339c6-6c10-4827-846b-9ff1d9c3dc37");
    // Every entry predates the header (00:53:29.825Z, the branching): all copied; the last turn-making one is line 54.
    expect(main!.relation).toEqual({ kind: "fork", atTurnKey: "54" });
    expect(main!.turns.every((t) => t.metadata?.copiedFromParent === true)).toBe(true);
    expect(main!.createdAt).toBe("2025-12-08T22:45:44.497Z");
    expect(main!.title).toBe("AgentSession looks like a good idea, can we put more stuff into that? what about thinking levels…");
  });

  it("marks the compaction at line 33 with pi's summary, tokensBefore and the first kept index", () => {
    const compaction = main!.turns.find((t) => t.key === "33")!;
    expect(compaction.role).toBe("system");
    expect(compaction.compaction).toEqual({ trigger: null, tokensBefore: 175004, tokensAfter: null });
    expect(compaction.content.startsWith("# Context Checkpoint: Coding Agent Refactoring")).toBe(true);
    // Index 293 is past this excerpt's 54 lines: kept as the number, no entry to name.
    expect(compaction.metadata).toMatchObject({ firstKeptEntryIndex: 293 });
    expect(compaction.metadata?.firstKeptEntryId).toBeUndefined();
  });

  it("attributes thinking levels and models along the way", () => {
    const assistant = (key: string) => main!.turns.find((t) => t.key === key)!;
    // The header says off; lines 2-5 raise it to high before the first reply (line 7).
    expect(assistant("7").metadata?.thinkingLevel).toBe("high");
    expect(assistant("7").modelName).toBe("claude-opus-4-5");
    expect(assistant("7").modelProvider).toBe("anthropic");
    // The aborted replies (lines 35, 43): kept with pi's error message, zero usage as reported.
    expect(assistant("35").metadata).toMatchObject({ stopReason: "aborted", aborted: true, errorMessage: "Request was aborted." });
    expect(assistant("35").usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reportedCostUsd: 0 });
    expect(assistant("35").content).toBe("");
  });

  it("turns the edit tool's numbered diff into a unified diff naming the file", () => {
    const result = main!.turns.find((t) => t.key === "15")!.parts!.find((p) => p.type === "tool_result")!;
    expect(result.type === "tool_result" && result.isError).toBe(false);
    const diff = String(result.diff);
    expect(
      diff.startsWith(
        "--- a/Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/main-new.ts\n+++ b/Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/main-new.ts\n@@ -",
      ),
    ).toBe(true);
    expect(result.details).toMatchObject({ diff: expect.stringContaining("   21 import { findModel") });
  });
});

describe("the v3 fixture", () => {
  const [main] = parse(V3).threads;
  it("is titled by its session_info name, with the model of the model_change on the reply", () => {
    expect(main!.title).toBe("agent-history pi smoke");
    expect(main!.parentKey ?? null).toBeNull();
    const reply = main!.turns[1]!;
    expect(reply).toMatchObject({
      role: "assistant",
      modelProvider: "openai-codex",
      modelName: "gpt-5.5",
      usage: { inputTokens: 433, outputTokens: 9, reportedCostUsd: 0.002435 },
    });
    expect(reply.metadata).toMatchObject({ api: "openai-codex-responses", thinkingLevel: "off" });
  });
});
