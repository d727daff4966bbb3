/**
 * The Factory Droid sessions of the shared fixtures (SYNTHETIC: no public real session was found;
 * written after the readers cited in fixtures/real/SOURCES.md), each with the settings file beside
 * it, checked against an independent reading of the raw lines and settings done here: one turn per
 * message and compaction, keys and roles, tool pairing, the sub-agent link, and the settings'
 * totals as session totals counted once.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { detectLineFormat, numberedLines, parseDetected } from "../index";
import { someFixtures } from "@/lib/testing/real-fixtures";

const ROOT = path.join(process.cwd(), "fixtures/real/factory-droid/sessions");
const FILES = someFixtures(
  readdirSync(ROOT).flatMap((dir) =>
    readdirSync(path.join(ROOT, dir))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => path.join(ROOT, dir, name)),
  ),
  ROOT,
);

type Raw = any;

function rawOf(file: string): { records: Raw[]; settings: Raw | undefined } {
  const records = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  const settingsFile = file.replace(/\.jsonl$/, ".settings.json");
  return { records, settings: existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, "utf8")) : undefined };
}

async function parse(file: string) {
  const { settings } = rawOf(file);
  const name = path.basename(file);
  const detected = detectLineFormat(name, numberedLines(readFileSync(file, "utf8")));
  expect(detected.format).toBe("factory-droid");
  return parseDetected(name, detected, { droidSettings: settings });
}

describe.each(FILES.map((file) => [path.basename(file), file] as const))("Droid session %s", (name, file) => {
  const { records, settings } = rawOf(file);
  const [start, ...rest] = records;
  const turning = rest.filter((r) => r.type === "message" || r.type === "compaction_state");
  const messages = rest.filter((r) => r.type === "message");

  it("is one thread keyed by the session id (the file's name), in its cwd, every line accounted for", async () => {
    const result = await parse(file);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    const [thread] = result.threads;
    expect(`${thread!.key}.jsonl`).toBe(name);
    expect(thread!.key).toBe(start.id);
    expect(thread!.project).toBe(start.cwd);
    expect(thread!.title).toBe(start.sessionTitle);
    const kinds = new Set(rest.map((r) => r.type));
    expect([...kinds].every((k) => ["message", "compaction_state", "todo_state", "agent_turn_outcome"].includes(k))).toBe(true);
  });

  it("makes one turn per message and compaction, keyed by id, a message of tool results a tool turn", async () => {
    const [thread] = (await parse(file)).threads;
    expect(thread!.turns.map((t) => t.key)).toEqual(turning.map((r) => r.id));
    const roleOf = (r: Raw) =>
      r.type === "compaction_state"
        ? "system"
        : r.message.role === "user" && r.message.content.some((b: Raw) => b.type === "tool_result")
          ? "tool"
          : r.message.role;
    expect(thread!.turns.map((t) => t.role)).toEqual(turning.map(roleOf));
    expect(thread!.turns.map((t) => t.timestamp)).toEqual(turning.map((r) => r.timestamp));
    const compactions = rest.filter((r) => r.type === "compaction_state");
    expect(thread!.turns.filter((t) => t.compaction).map((t) => t.content)).toEqual(compactions.map((r) => r.summaryText));
  });

  it("pairs every tool call with its result", async () => {
    const [thread] = (await parse(file)).threads;
    const blocks = (type: string) => messages.flatMap((r) => r.message.content.filter((b: Raw) => b.type === type));
    const calls = blocks("tool_use").map((b: Raw) => b.id);
    const results = blocks("tool_result").map((b: Raw) => b.tool_use_id);
    const ids = (type: string) =>
      thread!.turns.flatMap((t) =>
        (t.parts ?? [])
          .filter((p) => p.type === type)
          .map((p) => (p.type === "tool_call" ? p.id : p.type === "tool_result" ? p.toolCallId : "")),
      );
    expect(ids("tool_call")).toEqual(calls);
    expect(ids("tool_result")).toEqual(results);
    expect(new Set(results)).toEqual(new Set(calls));
    expect(thread!.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === "tool_result" && p.isError)).length).toBe(
      blocks("tool_result").filter((b: Raw) => b.is_error === true).length,
    );
  });

  it("keeps the settings' totals once, as session totals of its model, and no usage on the replies", async () => {
    const [thread] = (await parse(file)).threads;
    const u = settings.tokenUsage;
    const replies = messages.filter((r) => r.message.role === "assistant");
    expect(sessionTotalsOf(thread!.metadata)!.models).toEqual({
      [settings.model]: {
        requests: replies.length,
        premiumRequests: 0,
        inputTokens: u.inputTokens,
        cacheReadTokens: u.cacheReadTokens,
        cacheWriteTokens: u.cacheCreationTokens,
        outputTokens: u.outputTokens,
        reasoningTokens: u.thinkingTokens,
        reportedInputTokens: u.inputTokens,
      },
    });
    expect(sessionTotalsOf(thread!.metadata)!.reportedAt).toBe(messages.at(-1).timestamp);
    expect(thread!.turns.filter((t) => t.usage)).toEqual([]);
    expect(thread!.turns.filter((t) => t.metadata?.usageIn === "sessionTotals")).toHaveLength(replies.length);
  });

  it("links a sub-agent's session to the call that started it, a top-level one to nothing", async () => {
    const [thread] = (await parse(file)).threads;
    if (start.callingSessionId) {
      expect(thread!.parentKey).toBe(start.callingSessionId);
      expect(thread!.relation).toEqual({ kind: "subagent", toolCallId: start.callingToolUseId });
      // The call is in the calling session's file, beside it.
      const parent = rawOf(path.join(path.dirname(file), `${start.callingSessionId}.jsonl`));
      const call = parent.records
        .flatMap((r) => (r.type === "message" ? r.message.content : []))
        .find((b: Raw) => b.id === start.callingToolUseId);
      expect(call).toMatchObject({ type: "tool_use", name: "Task" });
    } else {
      expect(thread!.parentKey ?? null).toBeNull();
    }
  });

  it("gives the same result twice (stable keys for re-import)", async () => {
    expect(await parse(file)).toEqual(await parse(file));
  });
});
