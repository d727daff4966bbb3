/**
 * Every task folder of fixtures/real/{cline,roo-code,kilo-code} (synthetic, written from the
 * extensions' source: see fixtures/real/SOURCES.md), parsed as the import assembles it and checked
 * against an independent reading of the raw files done here with plain JSON.parse: one response per
 * assistant message, every tool call with its result, and the usage of every api_req_started
 * record counted exactly once.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { parseClineTask } from "./index";
import { clineTaskPath } from "./paths";

type Raw = any;

function historiesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return historiesUnder(full);
    return name === "api_conversation_history.json" ? [full] : [];
  });
}

const ROOT = path.join(process.cwd(), "fixtures/real");
const FILES = someFixtures(
  ["cline", "roo-code", "kilo-code"].flatMap((variant) => historiesUnder(path.join(ROOT, variant))),
  "fixtures/real/{cline,roo-code,kilo-code}",
);

function read(dir: string, name: string): Raw {
  const file = path.join(dir, name);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

function parse(file: string) {
  const dir = path.dirname(file);
  const where = clineTaskPath(file)!;
  return parseClineTask(
    {
      api: read(dir, "api_conversation_history.json"),
      ui: read(dir, "ui_messages.json"),
      metadata: read(dir, "task_metadata.json"),
      historyItem: read(dir, "history_item.json"),
      taskId: where.taskId,
      variant: where.variant!,
    },
    { name: file },
  );
}

describe.each(FILES.map((file) => [path.relative(ROOT, file), file] as const))("fixture %s", (_name, file) => {
  const dir = path.dirname(file);
  const api: Raw[] = read(dir, "api_conversation_history.json");
  const ui: Raw[] = read(dir, "ui_messages.json") ?? [];
  const result = parse(file);
  const [thread] = result.threads;
  const variant = clineTaskPath(file)!.variant!;

  it("is one thread keyed by the task folder, of its variant, nothing skipped", () => {
    expect(result.format).toBe(variant);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread!.key).toBe(path.basename(dir));
    expect(thread!.toolName).toBe(variant);
  });

  it("makes one response per assistant message, and a compaction per summary", () => {
    const assistants = api.filter((m) => m.role === "assistant" && !m.isSummary).length;
    const summaries = api.filter((m) => m.isSummary || m.isTruncationMarker).length;
    expect(thread!.turns.filter((t) => t.role === "assistant" && !t.metadata?.apiRequestWithoutResponse)).toHaveLength(assistants);
    expect(thread!.turns.filter((t) => t.compaction)).toHaveLength(summaries);
  });

  it("pairs every tool_use with its tool_result", () => {
    const uses = api.flatMap((m) =>
      (Array.isArray(m.content) ? m.content : []).filter((b: Raw) => b.type === "tool_use").map((b: Raw) => b.id),
    );
    const results = api.flatMap((m) =>
      (Array.isArray(m.content) ? m.content : []).filter((b: Raw) => b.type === "tool_result").map((b: Raw) => b.tool_use_id),
    );
    const calls = thread!.turns.flatMap((t) => (t.parts ?? []).flatMap((p) => (p.type === "tool_call" ? [p.id] : [])));
    const paired = thread!.turns.flatMap((t) => (t.parts ?? []).flatMap((p) => (p.type === "tool_result" ? [p.toolCallId] : [])));
    expect(calls).toEqual(uses);
    expect(paired).toEqual(results);
  });

  it("counts the usage of every api_req_started record once, the cache out of the input", () => {
    const requests = ui.filter((m) => m.say === "api_req_started").map((m) => JSON.parse(m.text));
    // Cline's tokensIn is the input without the cache; these Roo Code and Kilo Code fixtures say by their counts which they are.
    const inclusive = (r: Raw) =>
      variant !== "cline" &&
      r.tokensIn >= (r.cacheReads ?? 0) + (r.cacheWrites ?? 0) &&
      requests.every((q: Raw) => q.tokensIn >= (q.cacheReads ?? 0) + (q.cacheWrites ?? 0));
    const expected = {
      input: requests.reduce((n: number, r: Raw) => n + (inclusive(r) ? r.tokensIn - r.cacheReads - r.cacheWrites : r.tokensIn), 0),
      output: requests.reduce((n: number, r: Raw) => n + r.tokensOut, 0),
      reads: requests.reduce((n: number, r: Raw) => n + r.cacheReads, 0),
      writes: requests.reduce((n: number, r: Raw) => n + r.cacheWrites, 0),
      cost: requests.reduce((n: number, r: Raw) => n + r.cost, 0),
    };
    const usages = thread!.turns.flatMap((t) => (t.usage ? [t.usage] : []));
    expect(usages).toHaveLength(requests.length);
    const sum = (pick: (u: (typeof usages)[number]) => number | undefined) => usages.reduce((n, u) => n + (pick(u) ?? 0), 0);
    expect(sum((u) => u.inputTokens)).toBe(expected.input);
    expect(sum((u) => u.outputTokens)).toBe(expected.output);
    expect(sum((u) => u.cacheReadTokens)).toBe(expected.reads);
    expect(sum((u) => u.cacheWriteTokens)).toBe(expected.writes);
    expect(sum((u) => u.reportedCostUsd)).toBeCloseTo(expected.cost, 12);
  });

  it("gives every response a model", () => {
    for (const turn of thread!.turns.filter((t) => t.role === "assistant")) expect(turn.modelName, turn.key).toBeTruthy();
  });

  it("gives the same turns twice (stable keys for re-import)", () => {
    expect(parse(file)).toEqual(result);
  });
});

describe("the Roo Code fixtures", () => {
  const parent = parse(FILES.find((f) => f.includes("0b6f8a4e"))!).threads[0]!;
  const child = parse(FILES.find((f) => f.includes("7d1e2f30"))!).threads[0]!;

  it("link the sub-task to its parent through history_item.json and the new_task result", () => {
    expect(child).toMatchObject({ parentKey: parent.key, relation: { kind: "subagent", toolCallId: null } });
    const call = parent.turns.flatMap((t) => t.parts ?? []).find((p) => p.type === "tool_call" && p.name === "new_task");
    expect(call).toMatchObject({ childTaskId: child.key });
  });

  it("mark the condense with Roo Code's figures, and read tokensIn as including the cache", () => {
    expect(parent.turns.find((t) => t.compaction)).toMatchObject({
      role: "system",
      compaction: { tokensBefore: 16310, tokensAfter: 2140 },
      metadata: { condenseCostUsd: 0.0213 },
    });
    // tokensIn 15840 with 15837 cache writes: 3 tokens of input.
    expect(parent.turns[1]!.usage).toMatchObject({ inputTokens: 3, cacheWriteTokens: 15837 });
  });
});

describe("the Kilo Code fixture", () => {
  const thread = parse(FILES.find((f) => f.includes("kilo-code"))!).threads[0]!;
  it("reads an older build's tokensIn as without the cache, the model from the environment details", () => {
    expect(thread.turns[1]!.usage).toMatchObject({ inputTokens: 12, cacheWriteTokens: 11850 });
    expect(thread.turns[1]!.modelName).toBe("anthropic/claude-sonnet-4");
    expect(thread.turns[2]).toMatchObject({ role: "tool", metadata: { toolResultInText: true } });
  });
});
