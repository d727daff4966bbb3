/**
 * Every Continue session of the shared fixtures (synthetic: see fixtures/real/SOURCES.md), checked
 * against an independent reading of the raw document done here: one turn per history item by its
 * role (thinking folded into the reply after it), each call's result from a tool message or its
 * toolCallStates output, each message's usage, and sessions.json left to the folder walk as a side file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { detectFormat, parseDetected } from "../index";
import { ImportFormatError } from "../types";

const ROOT = path.join(process.cwd(), "fixtures/real/continue/sessions");
const FILES = someFixtures(
  readdirSync(ROOT)
    .filter((name) => name !== "sessions.json")
    .map((name) => path.join(ROOT, name)),
  ROOT,
);

type Raw = any;

describe.each(FILES.map((file) => [path.basename(file), file]))("%s", (_name, file) => {
  const text = readFileSync(file, "utf8");
  const raw: Raw = JSON.parse(text);
  const parse = () => parseDetected(file, detectFormat(file, text));

  it("is detected as Continue and parsed whole", async () => {
    const parsed = await parse();
    expect(parsed.format).toBe("continue");
    expect(parsed.skipped).toEqual([]);
    expect(parsed.threads).toHaveLength(1);
    expect(parsed.threads[0]!.key).toBe(raw.sessionId);
    expect(parsed.threads[0]!.title).toBe(raw.title);
  });

  it("makes one turn per item in order (thinking joins the reply), a compaction per summary", async () => {
    const thread = (await parse()).threads[0]!;
    const expected: string[] = [];
    raw.history.forEach((item: Raw) => {
      const role = item.message.role;
      if (role === "thinking") return;
      const compactionItem = item.conversationSummary !== undefined && item.message.content === item.conversationSummary;
      expected.push(compactionItem ? "system" : role === "tool" ? "tool" : role);
      const states = item.toolCallStates ?? [];
      const answeredElsewhere = (id: string) =>
        raw.history.some((other: Raw) => other.message.role === "tool" && other.message.toolCallId === id);
      if (states.some((s: Raw) => !answeredElsewhere(s.toolCallId) && s.output?.length)) expected.push("tool");
      if (item.conversationSummary !== undefined && !compactionItem) expected.push("system");
    });
    expect(thread.turns.map((t) => t.role)).toEqual(expected);
    const summaries = raw.history.filter((item: Raw) => item.conversationSummary).map((item: Raw) => item.conversationSummary);
    expect(thread.turns.filter((t) => t.compaction).map((t) => t.content)).toEqual(summaries);
    const thinking = raw.history.filter((item: Raw) => item.message.role === "thinking").map((item: Raw) => item.message.content);
    expect(thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === "thinking").map((p) => (p as Raw).text))).toEqual(thinking);
  });

  it("pairs every toolCalls id with one result, an errored state as an error", async () => {
    const thread = (await parse()).threads[0]!;
    const calls = raw.history.flatMap((item: Raw) => (item.message.toolCalls ?? []).map((c: Raw) => c.id));
    const states = new Map(raw.history.flatMap((item: Raw) => (item.toolCallStates ?? []).map((s: Raw) => [s.toolCallId, s.status])));
    const parts = thread.turns.flatMap((t) => t.parts ?? []);
    expect(parts.filter((p) => p.type === "tool_call").map((p) => (p as Raw).id)).toEqual(calls);
    const results = parts.filter((p) => p.type === "tool_result") as Raw[];
    expect(results.map((p) => p.toolCallId)).toEqual(calls);
    for (const result of results) expect(result.isError).toBe(states.get(result.toolCallId) === "errored");
  });

  it("gives each assistant message its own usage and nothing else any", async () => {
    const thread = (await parse()).threads[0]!;
    const usages = raw.history.filter((item: Raw) => item.message.usage).map((item: Raw) => item.message.usage);
    const withUsage = thread.turns.filter((t) => t.usage);
    expect(withUsage.map((t) => t.usage!.inputTokens)).toEqual(usages.map((u: Raw) => u.promptTokens));
    expect(withUsage.map((t) => t.usage!.outputTokens)).toEqual(usages.map((u: Raw) => u.completionTokens));
    expect(withUsage.map((t) => t.usage!.cacheReadTokens ?? 0)).toEqual(usages.map((u: Raw) => u.promptTokensDetails?.cachedTokens ?? 0));
    if (raw.usage) {
      // The session's running totals (the CLI's) are the sum of its messages', kept aside, never counted again.
      expect(withUsage.reduce((n, t) => n + t.usage!.inputTokens!, 0)).toBe(raw.usage.promptTokens);
      expect(withUsage.reduce((n, t) => n + t.usage!.outputTokens!, 0)).toBe(raw.usage.completionTokens);
    }
  });
});

describe("sessions.json", () => {
  it("is the index, not a transcript: no format takes it", () => {
    const file = path.join(ROOT, "sessions.json");
    const index: Raw[] = JSON.parse(readFileSync(file, "utf8"));
    expect(index.map((entry) => entry.sessionId).sort()).toEqual(FILES.map((f) => path.basename(f, ".json")).sort());
    expect(() => detectFormat(file, readFileSync(file, "utf8"))).toThrow(ImportFormatError);
  });
});
