/**
 * Every real Amp thread of the shared fixtures (`amp threads export` documents of Amp
 * 0.0.1788048110, scrubbed by their publisher; fixtures/real/SOURCES.md), checked against an
 * independent reading of the raw JSON done here: one turn per message, keys, roles, the tool calls
 * and their results, each reply's usage and model, title, folder and times.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFormat, parseDetected } from "../index";
import { someFixtures } from "@/lib/testing/real-fixtures";

const ROOT = path.join(process.cwd(), "fixtures/real/amp/threads");
const FILES = someFixtures(
  readdirSync(ROOT).map((name) => path.join(ROOT, name)),
  ROOT,
);

type Raw = any;

async function parse(file: string) {
  const name = path.basename(file);
  const detected = detectFormat(name, readFileSync(file, "utf8"));
  expect(detected.format).toBe("amp");
  return parseDetected(name, detected);
}

describe.each(FILES.map((file) => [path.basename(file), file] as const))("real Amp thread %s", (name, file) => {
  const raw: Raw = JSON.parse(readFileSync(file, "utf8"));
  const messages: Raw[] = raw.messages;
  const replies = messages.filter((m) => m.role === "assistant");

  it("is one thread keyed by the id its file is named by, titled, in its working directory", async () => {
    const result = await parse(file);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.threads).toHaveLength(1);
    const [thread] = result.threads;
    expect(thread!.key).toBe(raw.id);
    expect(`${thread!.key}.json`).toBe(name);
    expect(thread!.title).toBe(raw.title);
    expect(thread!.project).toBe(new URL(raw.env.initial.workingDirectory).pathname);
    expect(thread!.createdAt).toBe(new Date(raw.created).toISOString());
    expect(thread!.lastUpdatedAt).toBe(raw.updatedAt);
    expect(thread!.metadata).toMatchObject({ revision: raw.v, agentMode: raw.agentMode });
  });

  it("makes one turn per message, keyed by messageId; a message of tool results is a tool turn", async () => {
    const [thread] = (await parse(file)).threads;
    expect(thread!.turns.map((t) => t.key)).toEqual(messages.map((m) => String(m.messageId)));
    const roleOf = (m: Raw) =>
      m.role === "user" && m.content.some((b: Raw) => b.type === "tool_result") ? "tool" : m.role === "info" ? "system" : m.role;
    expect(thread!.turns.map((t) => t.role)).toEqual(messages.map(roleOf));
    // The typed prompts as they were sent, at meta.sentAt.
    const prompts = messages.filter((m) => m.role === "user" && m.meta?.sentAt);
    expect(thread!.turns.filter((t) => t.role === "user").map((t) => [t.content, t.timestamp])).toEqual(
      prompts.map((m) => [m.content.map((b: Raw) => b.text).join("\n\n"), new Date(m.meta.sentAt).toISOString()]),
    );
  });

  it("pairs every tool call with its result", async () => {
    const [thread] = (await parse(file)).threads;
    const calls = replies.flatMap((m) => m.content.filter((b: Raw) => b.type === "tool_use").map((b: Raw) => b.id));
    const results = messages.flatMap((m) => m.content.filter((b: Raw) => b.type === "tool_result").map((b: Raw) => b.toolUseID));
    const partIds = (type: string) =>
      thread!.turns.flatMap((t) =>
        (t.parts ?? [])
          .filter((p) => p.type === type)
          .map((p) => (p.type === "tool_call" ? p.id : p.type === "tool_result" ? p.toolCallId : "")),
      );
    expect(partIds("tool_call")).toEqual(calls);
    expect(partIds("tool_result")).toEqual(results);
    expect(new Set(results)).toEqual(new Set(calls));
  });

  it("keeps each reply's model and usage once; for these gpt-* replies the cache creation is uncached input", async () => {
    const [thread] = (await parse(file)).threads;
    const assistants = thread!.turns.filter((t) => t.role === "assistant");
    expect(assistants.map((t) => [t.modelName, t.timestamp])).toEqual(replies.map((m) => [m.usage.model, m.usage.timestamp]));
    const sum = (pick: (u: Raw) => number) => replies.reduce((n, m) => n + pick(m.usage), 0);
    const got = (pick: (u: Raw) => number | undefined) => assistants.reduce((n, t) => n + (pick(t.usage) ?? 0), 0);
    expect(replies.every((m) => m.usage.model.startsWith("gpt-"))).toBe(true);
    expect(got((u) => u.inputTokens)).toBe(sum((u) => u.inputTokens + u.cacheCreationInputTokens));
    expect(got((u) => u.cacheReadTokens)).toBe(sum((u) => u.cacheReadInputTokens));
    expect(got((u) => u.outputTokens)).toBe(sum((u) => u.outputTokens));
    expect(got((u) => u.cacheWriteTokens)).toBe(0);
    // Counted once: input, cache reads and writes add up to the prompt Amp reports.
    for (const [i, t] of assistants.entries())
      expect(t.usage!.inputTokens! + t.usage!.cacheReadTokens! + (t.usage!.cacheWriteTokens ?? 0)).toBe(replies[i].usage.totalInputTokens);
  });

  it("gives the same result twice (stable keys for re-import)", async () => {
    expect(await parse(file)).toEqual(await parse(file));
  });
});

describe("the Task thread (T-01a050f8…)", () => {
  it("keeps the encrypted reasoning as a redacted thinking block and the sub-agent's answer as the Task result", async () => {
    const file = FILES.find((f) => f.includes("T-01a050f8"))!;
    const [thread] = (await parse(file)).threads;
    const reply = thread!.turns[1]!;
    expect(reply.parts![0]).toEqual({ type: "thinking", text: "", redacted: true, provider: "openai" });
    expect(reply.parts![1]).toMatchObject({ type: "tool_call", id: "TU-034FwCUCWrYayCUhtFy2C5", name: "Task" });
    expect(thread!.turns[2]).toMatchObject({ role: "tool", toolName: "Task", content: "SUBOK" });
    expect(JSON.stringify(thread)).not.toContain("SCRUBBED-ENCRYPTED-REASONING-BLOB");
    // The Task run leaves no record of its own in the thread: no sub-agent thread.
    expect(thread!.parentKey ?? null).toBeNull();
  });
});
