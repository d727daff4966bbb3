/**
 * Integration test (real database) of what sessions cost: every real transcript in fixtures/real
 * and fixtures/real that Threadline imports, read back through GET /api/threads/:id.
 * A thread's cost is the sum of its responses' prices (each priced alone, at its time), its
 * unpriced responses are counted and named, and a Claude Code session's total equals an
 * independent sum of calcPrice over the files' own usage lines (the library's names, 1-hour
 * cache writes as the file splits them).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addCustomModel } from "@/lib/db/settings/custom-models";
import { priceSessionTotals, sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import type { CostTotals, ResponseCost, Thread, Turn } from "@/lib/domain/types";
import { pricerWith } from "@/lib/models/pricing";
import { importFile } from "@/lib/imports/import-file";
import { importedThreadId } from "@/lib/importers/stable-id";
import { json } from "@/lib/testing/api";
import { fixtureFiles, independentClaudeCost, REAL_FIXTURE_ROOTS as ROOTS } from "@/lib/testing/real-fixtures";
import { api, fetchThread, newThread, newTurn } from "@/lib/testing/integration";

function expectSum(totals: CostTotals, costs: ResponseCost[]): void {
  const priced = costs.filter((c) => c.priced);
  const sum = (field: "totalUsd" | "inputUsd" | "outputUsd" | "cacheReadUsd" | "cacheWriteUsd") => priced.reduce((n, c) => n + c[field], 0);
  expect(totals.totalUsd).toBeCloseTo(sum("totalUsd"), 12);
  expect(totals.inputUsd).toBeCloseTo(sum("inputUsd"), 12);
  expect(totals.outputUsd).toBeCloseTo(sum("outputUsd"), 12);
  expect(totals.cacheReadUsd).toBeCloseTo(sum("cacheReadUsd"), 12);
  expect(totals.cacheWriteUsd).toBeCloseTo(sum("cacheWriteUsd"), 12);
  expect(totals.unpricedResponses).toBe(costs.length - priced.length);
  expect(totals.unpricedModels).toEqual([...new Set(costs.filter((c) => !c.priced).map((c) => c.model ?? "(no model)"))].sort());
}

describe("cost over the real transcripts", () => {
  it("prices every response of every imported session, and a thread's cost is the sum of its responses' prices", async () => {
    const threads = new Set<string>();
    for (const { file, name } of fixtureFiles) {
      const report = await importFile(name, readFileSync(file, "utf8"));
      expect(["imported", "unchanged"], `${file}: ${report.error ?? ""}`).toContain(report.status);
      for (const id of report.threadIds) threads.add(id);
    }
    expect(threads.size).toBeGreaterThan(10);

    // The list prices each thread's own responses too (from the stored usage, without the turns).
    const listed = new Map((await json<{ items: Thread[] }>(await api.listThreads({ limit: "100" }))).items.map((t) => [t.id, t.cost]));
    let responses = 0;
    let pricedTotal = 0;
    for (const id of threads) {
      const { thread, turns } = (await fetchThread(id)) as { thread: Thread; turns: Turn[] };
      expect(listed.get(id)!.totalUsd).toBeCloseTo(thread.cost!.totalUsd, 12);
      expect(listed.get(id)!.unpricedModels).toEqual(thread.cost!.unpricedModels);
      const costs = turns.filter((t) => t.usage).map((t) => t.cost as ResponseCost);
      expect(turns.filter((t) => !t.usage).every((t) => t.cost === null)).toBe(true);
      // A source that reports tokens only per session (Copilot CLI): each model's totals priced as one request, added.
      const totals = sessionTotalsOf(thread.metadata);
      expectSum(thread.cost!, [...costs, ...(totals ? priceSessionTotals(totals, pricerWith([])).map((t) => t.cost) : [])]);
      expect(thread.costWithSubagents!.totalUsd).toBeGreaterThanOrEqual(thread.cost!.totalUsd - 1e-12);
      for (const cost of costs)
        expect(cost.inputUsd + cost.outputUsd + cost.cacheReadUsd + cost.cacheWriteUsd).toBeCloseTo(cost.totalUsd, 12);
      responses += costs.length;
      pricedTotal += thread.cost!.totalUsd;
    }
    expect(responses).toBeGreaterThan(100);
    expect(pricedTotal).toBeGreaterThan(0);
  });

  it("a Claude Code session with its sub-agent and compaction run costs what calcPrice gives for the files' own usage", async () => {
    const dir = path.join(ROOTS[0]!, "claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te");
    const session = path.join(dir, "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl");
    const agent = path.join(dir, "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl");
    const run = path.join(dir, "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl");
    for (const file of [session, agent, run]) {
      const name = path.relative(dir, file);
      expect(["imported", "unchanged"]).toContain((await importFile(name, readFileSync(file, "utf8"))).status);
    }
    const { thread } = await fetchThread(importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04"));
    expect(thread.cost!.unpricedResponses).toBe(0);
    expect(thread.cost!.totalUsd).toBeCloseTo(independentClaudeCost([session]), 12);
    expect(thread.costWithSubagents!.totalUsd).toBeCloseTo(independentClaudeCost([session, agent, run]), 12);
    expect(thread.costWithSubagents!.totalUsd).toBeGreaterThan(thread.cost!.totalUsd);
  });

  it("prices 1-hour cache writes at their own rate: a session that wrote only 1-hour entries costs more than at the 5-minute rate", async () => {
    const file = path.join(ROOTS[0]!, "claude-code/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl");
    const report = await importFile(path.basename(file), readFileSync(file, "utf8"));
    const { thread, turns } = await fetchThread(report.threadIds[0]!);
    expect(thread.cost!.totalUsd).toBeCloseTo(independentClaudeCost([file]), 12);
    // claude-opus-4-6: 1-hour writes $10 per million (2x input), 5-minute ones $6.25.
    const writes = turns.reduce((n, t) => n + (t.usage?.cacheWriteTokens ?? 0), 0);
    expect(writes).toBe(17_696);
    expect(thread.cost!.cacheWriteUsd).toBeCloseTo((17_696 * 10) / 1e6, 12);
  });

  it("prices each response at the prices in force when it ran, in the thread and in the list alike", async () => {
    // claude-opus-4-6 with 300k input tokens: the long-context tier until 2026-03-13 (input $10,
    // cache read $1, output $37.50 per million), flat $5 / $0.50 / $25 after.
    const line = (uuid: string, parentUuid: string | null, timestamp: string, message: { role: string } & Record<string, unknown>) =>
      JSON.stringify({
        type: message.role,
        uuid,
        parentUuid,
        timestamp,
        sessionId: "cost-dates",
        cwd: "/w",
        version: "2.1.39",
        isSidechain: false,
        requestId: `req-${uuid}`,
        message,
      });
    const usage = { input_tokens: 10_000, cache_read_input_tokens: 290_000, cache_creation_input_tokens: 0, output_tokens: 1_000 };
    const text = [
      line("u1", null, "2026-03-01T12:00:00.000Z", { role: "user", content: "first" }),
      line("a1", "u1", "2026-03-01T12:00:01.000Z", {
        id: "msg_1",
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: "one" }],
        usage,
      }),
      line("u2", "a1", "2026-04-01T12:00:00.000Z", { role: "user", content: "second" }),
      line("a2", "u2", "2026-04-01T12:00:01.000Z", {
        id: "msg_2",
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: "two" }],
        usage,
      }),
    ].join("\n");
    const report = await importFile("cost-dates.jsonl", text);
    expect(report.status, report.error).toBe("imported");
    const id = report.threadIds[0]!;
    const { thread, turns } = await fetchThread(id);
    expect(turns.filter((t) => t.cost).map((t) => t.cost!.totalUsd)).toEqual([
      expect.closeTo(0.1 + 0.29 + 0.0375, 12),
      expect.closeTo(0.05 + 0.145 + 0.025, 12),
    ]);
    expect(thread.cost!.totalUsd).toBeCloseTo(0.4275 + 0.22, 12);
    const listed = (await json<{ items: Thread[] }>(await api.listThreads({ limit: "100" }))).items.find((t) => t.id === id)!;
    expect(listed.cost!.totalUsd).toBeCloseTo(0.4275 + 0.22, 12);
  });

  it("prices a custom model's responses with the prices Settings gives it, in the thread and in the list", async () => {
    const thread = await newThread({ toolName: "cost-custom" });
    await newTurn(thread.id, { role: "user", content: "hi" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "hello",
      modelName: "my-finetune-7b",
      modelMetadata: { usage: { input_tokens: 1_000_000, output_tokens: 100_000 } },
    });
    const listCost = async () => (await json<{ items: Thread[] }>(await api.listThreads({ tool: "cost-custom" }))).items[0]!.cost!;
    expect((await fetchThread(thread.id)).thread.cost).toMatchObject({
      totalUsd: 0,
      unpricedResponses: 1,
      unpricedModels: ["my-finetune-7b"],
    });
    expect(await listCost()).toMatchObject({ unpricedResponses: 1 });

    await addCustomModel({
      name: "my-finetune-7b",
      contextWindow: 32_768,
      tokenizer: "o200k_base",
      inputPricePerMTok: 0.5,
      outputPricePerMTok: 1.5,
    });
    // 1M input tokens at $0.50 and 100k output at $1.50 per million.
    const expected = {
      totalUsd: expect.closeTo(0.65, 12),
      inputUsd: expect.closeTo(0.5, 12),
      outputUsd: expect.closeTo(0.15, 12),
      unpricedResponses: 0,
    };
    expect((await fetchThread(thread.id)).thread.cost).toMatchObject(expected);
    expect(await listCost()).toMatchObject(expected);
  });
});
