/**
 * Integration test (real database) of GET /api/usage: the real transcripts imported, and threads
 * written through the API, summed from the usage buckets. The figures equal the threads' own
 * costs (each response priced alone) and an independent pricing of the raw Claude Code files;
 * days fall in the asked time zone; appends, re-imports, forks, deletes and price changes show up
 * in the next report.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as forkRoute } from "@/app/api/threads/[id]/forks/route";
import { GET as usageRoute } from "@/app/api/usage/route";
import { addCustomModel, deleteCustomModel } from "@/lib/db/settings/custom-models";
import { refreshUsageBuckets } from "@/lib/db/usage/usage-aggregates";
import { usageReport } from "@/lib/db/usage/usage-report";
import { parseOrThrow } from "@/lib/domain/parse";
import type { Thread } from "@/lib/domain/types";
import type { UsageReport } from "@/lib/domain/usage/usage-report";
import { importFile } from "@/lib/imports/import-file";
import { importedThreadId } from "@/lib/importers/stable-id";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { api, expectError, fetchThread, newThread, newTurn } from "@/lib/testing/integration";
import { fixtureFiles, independentClaudeCost, REAL_FIXTURE_ROOTS } from "@/lib/testing/real-fixtures";
import { usageQuerySchema } from "@/lib/validation/usage";

const ALL_TIME = { since: "2020-01-01", until: "2029-12-31", tz: "UTC" };

async function usage(query: Record<string, string>): Promise<UsageReport> {
  const response = await usageRoute(jsonRequest("GET", `/api/usage?${new URLSearchParams(query)}`));
  expect(response.status, await response.clone().text()).toBe(200);
  return json<UsageReport>(response);
}

const sum = (rows: { costUsd: number }[]) => rows.reduce((n, r) => n + r.costUsd, 0);

/** A threadline/v1 document of one thread whose assistant turns carry Anthropic usage at the given times. */
function documentWith(
  id: string,
  responses: { at: string; model: string; input: number; output: number }[],
  extra: Record<string, unknown> = {},
) {
  const turns = responses.flatMap((r, i) => [
    { id: randomUUID(), role: "user", content: `question ${i}`, timestamp: r.at },
    {
      id: randomUUID(),
      role: "assistant",
      content: `answer ${i}`,
      timestamp: r.at,
      modelProvider: "anthropic",
      modelName: r.model,
      modelMetadata: { usage: { input_tokens: r.input, output_tokens: r.output } },
    },
  ]);
  return {
    format: "threadline/v1",
    threads: [
      {
        id,
        title: `usage ${id.slice(0, 8)}`,
        toolName: "chat",
        source: "api",
        createdAt: responses[0]!.at,
        lastUpdatedAt: responses.at(-1)!.at,
        turns,
        ...extra,
      },
    ],
  };
}

describe("GET /api/usage over the real transcripts", () => {
  it("sums every imported session's responses: each session's row is its thread's, its sub-agents' and its compaction runs', as the thread API gives it, and the totals are the rows' sums", async () => {
    const threads = new Set<string>();
    for (const { file, name } of fixtureFiles) {
      const report = await importFile(name, readFileSync(file, "utf8"));
      expect(["imported", "unchanged"], `${file}: ${report.error ?? ""}`).toContain(report.status);
      for (const id of report.threadIds) threads.add(id);
    }
    const byThread = await usage({ ...ALL_TIME, groupBy: "thread" });
    const rows = new Map(byThread.rows.map((r) => [r.key, r]));
    let responses = 0;
    let copiesLeftOut = 0;
    let sessionTotalRequests = 0;
    let subagents = 0;
    for (const id of threads) {
      const { thread, turns } = await fetchThread(id);
      // A session branched into a file of its own (Pi) starts with its parent's responses: paid for there.
      const copied = turns.filter((t) => t.usage && t.modelMetadata?.copiedFromParent === true);
      copiesLeftOut += copied.length;
      const own = turns.filter((t) => t.usage).length - copied.length;
      // Totals a source reports only per session (Copilot CLI) count as the requests they cover.
      const totals = thread.metadata?.sessionTotals as { models: Record<string, { requests: number }> } | undefined;
      const totalRequests = totals ? Object.values(totals.models).reduce((n, m) => n + Math.max(1, m.requests), 0) : 0;
      sessionTotalRequests += totalRequests;
      // The thread's own share of its figure: its responses (its compaction runs are split out).
      const figures = thread.figures!;
      expect(figures.parts.thread.responses, `thread ${id}`).toBe(own + totalRequests);
      const runs = turns.flatMap((t) => (t.compactionRun ? [t.compactionRun] : []));
      expect(figures.parts.compactionRuns.responses).toBeGreaterThanOrEqual(runs.reduce((n, r) => n + r.responses, 0));
      const ownCost = thread.cost!.totalUsd - copied.reduce((n, t) => n + (t.cost?.totalUsd ?? 0), 0);
      if (figures.subagentThreads === 0 && runs.length === 0) expect(figures.total.costUsd).toBeCloseTo(ownCost, 9);
      // A sub-agent has no row of its own: it is in its session's.
      const relation = thread.metadata?.relation as { kind?: string } | undefined;
      if (relation?.kind === "subagent") {
        subagents++;
        expect(rows.has(id), `sub-agent ${id} has a row of its own`).toBe(false);
        continue;
      }
      if (figures.total.responses === 0) {
        expect(rows.has(id), `session ${id} has no responses but a usage row`).toBe(false);
        continue;
      }
      const row = rows.get(id);
      expect(row, `session ${id} has ${figures.total.responses} responses but no usage row`).toBeDefined();
      // The row is the session's figure as the thread API gives it, over all time.
      expect(row!.responses).toBe(figures.total.responses);
      expect(row!.costUsd).toBeCloseTo(figures.total.costUsd, 9);
      expect(row!.figures!.parts.thread.responses).toBe(figures.parts.thread.responses);
      expect(row!.figures!.subagentThreads).toBe(figures.subagentThreads);
      expect(row!.title).toBe(thread.title);
      responses += row!.responses;
    }
    expect(subagents).toBeGreaterThan(0);
    expect(responses).toBeGreaterThan(100);
    // The real Pi session is a branched copy, and the Copilot session reports its tokens at shutdown.
    expect(copiesLeftOut).toBeGreaterThan(0);
    expect(sessionTotalRequests).toBeGreaterThan(0);
    expect(byThread.totals.responses).toBe(byThread.rows.reduce((n, r) => n + r.responses, 0));
    expect(byThread.totals.costUsd).toBeCloseTo(sum(byThread.rows), 9);
    // Each thread counted once, in its session's row.
    expect(byThread.totals.threads).toBe(byThread.rows.reduce((n, r) => n + r.threads, 0));
    expect(byThread.rows.length).toBeLessThan(byThread.totals.threads);

    // The same responses by day, month, model, provider, project and source.
    for (const groupBy of ["day", "week", "month", "model", "provider", "project", "source"]) {
      const report = await usage({ ...ALL_TIME, groupBy });
      // Sums of floating-point prices in another order may differ in the last bits.
      expect({ ...report.totals, costUsd: 0 }, groupBy).toEqual({ ...byThread.totals, costUsd: 0 });
      expect(report.totals.costUsd, groupBy).toBeCloseTo(byThread.totals.costUsd, 9);
      expect(
        report.rows.reduce((n, r) => n + r.responses, 0),
        groupBy,
      ).toBe(byThread.totals.responses);
      expect(sum(report.rows), groupBy).toBeCloseTo(byThread.totals.costUsd, 9);
    }
  });

  it("a Claude Code session, its sub-agent and its compaction run cost what calcPrice gives for the raw files, by day and in all", async () => {
    const dir = path.join(REAL_FIXTURE_ROOTS[0]!, "claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te");
    const files = [
      "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
      "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
      "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl",
    ];
    for (const name of files)
      expect(["imported", "unchanged"]).toContain((await importFile(name, readFileSync(path.join(dir, name), "utf8"))).status);
    const sessionId = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    const { thread } = await fetchThread(sessionId);
    const project = thread.project!;
    const report = await usage({ ...ALL_TIME, groupBy: "day", project, breakdown: "model" });
    const expected = independentClaudeCost(files.map((name) => path.join(dir, name)));
    expect(report.totals.costUsd).toBeCloseTo(expected, 9);
    expect(report.totals.costUsd).toBeCloseTo(thread.costWithSubagents!.totalUsd, 9);
    expect(report.filters).toEqual({ project });
    for (const row of report.rows) expect(sum(row.breakdown!)).toBeCloseTo(row.costUsd, 12);
  });
});

describe("GET /api/usage over sessions that report tokens only per session", () => {
  const EVENTS = path.join(REAL_FIXTURE_ROOTS[0]!, "copilot/session-state/96ef38f0-9d09-45c3-8124-6448c36090ed/events.jsonl");
  const APRIL = { since: "2026-04-01", until: "2026-04-30", tz: "UTC", groupBy: "model", model: "claude-sonnet-4.6" };

  it("counts a Copilot CLI session's shutdown totals once, as their requests, and replaces them when a resumed session reports again", async () => {
    const text = readFileSync(EVENTS, "utf8");
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    // Independently of the importer: the file's one shutdown report, Copilot's input including cache.
    const metrics = lines.map((l) => JSON.parse(l)).filter((e) => e.type === "session.shutdown")[0].data.modelMetrics["claude-sonnet-4.6"];
    const name = "session-state/96ef38f0-9d09-45c3-8124-6448c36090ed/events.jsonl";
    // (The first test may have imported it already, under the same name.)
    expect(["imported", "unchanged"]).toContain((await importFile(name, text)).status);
    const [row] = (await usage(APRIL)).rows;
    expect(row).toMatchObject({
      responses: metrics.requests.count,
      inputTokens: metrics.usage.inputTokens - metrics.usage.cacheReadTokens - metrics.usage.cacheWriteTokens,
      cacheReadTokens: metrics.usage.cacheReadTokens,
      outputTokens: metrics.usage.outputTokens,
      unpricedResponses: 0,
    });
    expect(row!.costUsd).toBeGreaterThan(0);

    // The session resumed in a second process: one more exchange and its own shutdown report.
    const last = JSON.parse(lines.at(-1)!).id as string;
    const at = (s: number) => new Date(Date.UTC(2026, 3, 24, 9, 0, s)).toISOString();
    const resumed = [
      {
        type: "user.message",
        data: { content: "One more", transformedContent: "One more", attachments: [] },
        id: randomUUID(),
        timestamp: at(1),
        parentId: last,
      },
      {
        type: "assistant.message",
        data: { messageId: "m9", content: "Sure.", toolRequests: [], outputTokens: 12 },
        id: randomUUID(),
        timestamp: at(2),
        parentId: null,
      },
      {
        type: "session.shutdown",
        data: {
          modelMetrics: {
            "claude-sonnet-4.6": {
              requests: { count: 1, cost: 1 },
              usage: { inputTokens: 40000, outputTokens: 12, cacheReadTokens: 35000, cacheWriteTokens: 1000, reasoningTokens: 0 },
            },
          },
        },
        id: randomUUID(),
        timestamp: at(3),
        parentId: null,
      },
    ];
    const grown = `${lines.join("\n")}\n${resumed.map((e) => JSON.stringify(e)).join("\n")}\n`;
    expect((await importFile(name, grown)).status).toBe("imported");
    const [after] = (await usage(APRIL)).rows;
    expect(after).toMatchObject({
      responses: metrics.requests.count + 1,
      outputTokens: metrics.usage.outputTokens + 12,
      cacheReadTokens: metrics.usage.cacheReadTokens + 35000,
      cacheWriteTokens: 1000,
    });
    // No estimate is made for its replies: the session's totals are all it reports.
    expect(after!.estimatedResponses).toBe(0);
  });
});

describe("GET /api/usage over time", () => {
  it("puts responses on the days of the asked time zone and sums each day's responses", async () => {
    const PROJECT = "/work/usage-in-time-zones";
    const id = "5b0e1d2c-0000-4000-8000-00000000a001";
    const document = documentWith(
      id,
      [
        { at: "2026-03-28T22:30:00.000Z", model: "claude-sonnet-4-5", input: 1000, output: 100 }, // Berlin: 28 March 23:30 (UTC+1)
        { at: "2026-03-29T00:30:00.000Z", model: "claude-sonnet-4-5", input: 2000, output: 200 }, // Berlin: 29 March 01:30, the day the clocks go forward
        { at: "2026-03-29T22:30:00.000Z", model: "claude-haiku-4-5", input: 4000, output: 400 }, // Berlin: 30 March 00:30 (UTC+2)
        { at: "2026-03-30T05:00:00.000Z", model: "claude-haiku-4-5", input: 8000, output: 800 }, // Los Angeles: 29 March 22:00
      ],
      { project: PROJECT },
    );
    const imported = await api.importDocuments(document);
    expect(imported.status, await imported.clone().text()).toBe(201);
    const range = { since: "2026-03-27", until: "2026-03-31", groupBy: "day", project: PROJECT };
    const inputsBy = (report: UsageReport) => Object.fromEntries(report.rows.map((r) => [r.key, r.inputTokens]));
    expect(inputsBy(await usage({ ...range, tz: "UTC" }))).toMatchObject({ "2026-03-28": 1000, "2026-03-29": 6000, "2026-03-30": 8000 });
    expect(inputsBy(await usage({ ...range, tz: "Europe/Berlin" }))).toMatchObject({
      "2026-03-28": 1000,
      "2026-03-29": 2000,
      "2026-03-30": 12000,
    });
    expect(inputsBy(await usage({ ...range, tz: "America/Los_Angeles" }))).toMatchObject({ "2026-03-28": 3000, "2026-03-29": 12000 });
    expect(inputsBy(await usage({ ...range, tz: "Asia/Kathmandu" }))).toMatchObject({ "2026-03-29": 3000, "2026-03-30": 12000 });

    // A range is whole local days: Berlin's 29 March alone holds one response.
    const day = await usage({ since: "2026-03-29", until: "2026-03-29", tz: "Europe/Berlin", groupBy: "model", project: PROJECT });
    expect(day.rows.map((r) => [r.key, r.responses])).toEqual([["claude-sonnet-4-5", 1]]);
    const { thread, turns } = await fetchThread(id);
    expect(day.totals.costUsd).toBeCloseTo(turns[3]!.cost!.totalUsd, 12);
    const all = await usage({ since: "2026-03-01", until: "2026-03-31", tz: "UTC", groupBy: "thread" });
    expect(all.rows.find((r) => r.key === id)!.costUsd).toBeCloseTo(thread.cost!.totalUsd, 12);
    expect(all.rows.find((r) => r.key === id)!.threads).toBe(1);

    const weeks = await usage({ since: "2026-03-01", until: "2026-04-30", tz: "UTC", groupBy: "week", project: PROJECT });
    expect(Object.fromEntries(weeks.rows.map((r) => [r.key, r.responses]))).toMatchObject({ "2026-03-23": 3, "2026-03-30": 1 });
    const months = await usage({ since: "2026-02-15", until: "2026-04-30", tz: "Pacific/Kiritimati", groupBy: "month", project: PROJECT });
    expect(months.rows.map((r) => r.key)).toEqual(["2026-03"]);
  });

  it("shows an append, a re-import in place, a fork's own turns (not its copies), a price change and a delete in the next report", async () => {
    const thread = await newThread({ toolName: "chat", title: "live usage" });
    const report = () => usage({ ...ALL_TIME, groupBy: "thread" });
    const rowOf = async (id: string) => (await report()).rows.find((r) => r.key === id);
    expect(await rowOf(thread.id)).toBeUndefined();

    await newTurn(thread.id, { role: "user", content: "hello" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "hi",
      modelProvider: "openai",
      modelName: "gpt-5",
      modelMetadata: { usage: { input_tokens: 1_000_000, output_tokens: 0 } },
    });
    const first = (await rowOf(thread.id))!;
    expect(first.inputTokens).toBe(1_000_000);
    expect(first.responses).toBe(1);
    expect(first.costUsd).toBeGreaterThan(0);
    await newTurn(thread.id, {
      role: "assistant",
      content: "more",
      modelProvider: "openai",
      modelName: "gpt-5",
      modelMetadata: { usage: { input_tokens: 1_000_000, output_tokens: 0 } },
    });
    const second = (await rowOf(thread.id))!;
    expect(second.responses).toBe(2);
    expect(second.costUsd).toBeCloseTo(2 * first.costUsd, 12);

    // Responses without usage are estimated from the turns before them: appended one by one, and
    // summed as they come, they add up to what the whole thread gives.
    const estimated = await newThread({ toolName: "chat" });
    for (let i = 0; i < 3; i++) {
      await newTurn(estimated.id, { role: "user", content: `question ${i} `.repeat(50) });
      await newTurn(estimated.id, { role: "assistant", content: `answer ${i} `.repeat(30), modelProvider: "openai", modelName: "gpt-5" });
      await report();
    }
    const estimatedRow = (await rowOf(estimated.id))!;
    const { thread: estimatedThread } = await fetchThread(estimated.id);
    expect(estimatedRow.estimatedResponses).toBe(3);
    expect(estimatedRow.inputTokens).toBe(estimatedThread.usage!.inputTokens);
    expect(estimatedRow.outputTokens).toBe(estimatedThread.usage!.outputTokens);
    expect(estimatedRow.costUsd).toBeCloseTo(estimatedThread.cost!.totalUsd, 12);

    // A fork holds copies of turns 0..2: they were paid for once, in the source.
    const forked = await forkRoute(jsonRequest("POST", `/api/threads/${thread.id}/forks`, { atTurn: 2 }), params({ id: thread.id }));
    expect(forked.status, await forked.clone().text()).toBe(201);
    const fork = (await json<{ thread: Thread }>(forked)).thread;
    expect(await rowOf(fork.id)).toBeUndefined();
    await newTurn(fork.id, {
      role: "assistant",
      content: "in the fork",
      modelProvider: "openai",
      modelName: "gpt-5",
      modelMetadata: { usage: { input_tokens: 0, output_tokens: 1_000 } },
    });
    expect((await rowOf(fork.id))!.responses).toBe(1);

    // A custom model's prices, added and changed, price its past responses.
    const custom = await newThread({ toolName: "chat" });
    await newTurn(custom.id, {
      role: "assistant",
      content: "local",
      modelName: "house-model-7",
      modelMetadata: { usage: { input_tokens: 2_000_000, output_tokens: 1_000_000 } },
    });
    let row = (await rowOf(custom.id))!;
    expect(row.unpricedResponses).toBe(1);
    expect(row.costUsd).toBe(0);
    expect((await report()).totals.unpricedModels).toContain("house-model-7");
    await addCustomModel({
      name: "house-model-7",
      contextWindow: 100_000,
      tokenizer: "o200k_base",
      inputPricePerMTok: 1,
      outputPricePerMTok: 3,
    });
    row = (await rowOf(custom.id))!;
    expect(row.unpricedResponses).toBe(0);
    expect(row.costUsd).toBeCloseTo(2 * 1 + 1 * 3, 12);
    await deleteCustomModel("house-model-7");
    expect((await rowOf(custom.id))!.unpricedResponses).toBe(1);

    // A session file imported again after an edit: its turns are rewritten in place, as many as before.
    const dir = path.join(REAL_FIXTURE_ROOTS[0]!, "claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te");
    const name = "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";
    const original = readFileSync(path.join(dir, name), "utf8");
    expect(["imported", "unchanged"]).toContain((await importFile(name, original)).status);
    const sessionId = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    const before = (await rowOf(sessionId))!;
    const edited = original.replace(/"output_tokens":(\d+)/, (_, n) => `"output_tokens":${Number(n) + 1_000_000}`);
    expect(edited).not.toBe(original);
    const turnCount = (await fetchThread(sessionId)).thread.turnCount;
    expect((await importFile(name, edited)).status).toBe("imported");
    expect((await fetchThread(sessionId)).thread.turnCount).toBe(turnCount);
    const after = (await rowOf(sessionId))!;
    // The first usage line of a response may be a partial one (a response counts its largest figures).
    expect(after.outputTokens).toBeGreaterThan(before.outputTokens + 900_000);
    expect(after.costUsd).toBeGreaterThan(before.costUsd);

    expect((await api.deleteThread(thread.id)).status).toBe(204);
    expect(await rowOf(thread.id)).toBeUndefined();
    expect(await refreshUsageBuckets()).toEqual({ threads: 0, turns: 0 });
  });

  it("reads days, weeks and months from the hourly sums and the threads' spans as the buckets give them, in every zone of whole-hour offsets", async () => {
    for (const { file, name } of fixtureFiles) await importFile(name, readFileSync(file, "utf8"));
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "now",
      modelProvider: "openai",
      modelName: "gpt-5",
      modelMetadata: { usage: { input_tokens: 10, output_tokens: 5 } },
    });
    const ranges = [ALL_TIME, { since: "2026-02-10", until: "2026-02-12" }, { since: "2025-12-30", until: "2026-03-29" }];
    let compared = 0;
    for (const range of ranges) {
      for (const tz of ["UTC", "Europe/Berlin", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
        for (const groupBy of ["day", "week", "month"] as const) {
          for (const filter of [{}, { model: "gpt-5" }, { model: "claude-opus-4-6" }]) {
            const query = parseOrThrow(usageQuerySchema(), { ...range, tz, groupBy, breakdown: "model", ...filter });
            const fast = await usageReport(query, null);
            const exact = await usageReport(query, null, { fromBucketsOnly: true });
            const withoutCost = (report: UsageReport) =>
              JSON.parse(JSON.stringify(report, (key, value) => (key === "costUsd" ? 0 : value)));
            expect(withoutCost(fast), JSON.stringify(query)).toEqual(withoutCost(exact));
            fast.rows.forEach((row, i) => expect(row.costUsd).toBeCloseTo(exact.rows[i]!.costUsd, 9));
            compared += fast.rows.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it("refuses a bad parameter with 400 naming it", async () => {
    const cases: [string, string][] = [
      ["groupBy=year", "groupBy"],
      ["tz=Mars%2FOlympus", "tz"],
      ["since=2026-02-30", "since"],
      ["since=26-01-01", "since"],
      ["since=2026-02-01&until=2026-01-01", "until"],
      ["order=newest", "order"],
      ["tokenLimit=max", "tokenLimit"],
      ["limit=0", "limit"],
      ["breakdown=day", "breakdown"],
      ["groupby=day", "groupby"],
    ];
    for (const [query, field] of cases) {
      const body = await expectError(await usageRoute(jsonRequest("GET", `/api/usage?${query}`)), 400, "validation_failed");
      expect(body.message, query).toMatch(new RegExp(`^${field}\\b`));
    }
  });

  it("answers an empty range with zero rows and zero totals, and defaults to the last 30 days (cut to the days with data)", async () => {
    const empty = await usage({ since: "2001-01-01", until: "2001-01-31", tz: "UTC" });
    expect(empty.rows).toEqual([]);
    expect(empty.totals).toMatchObject({ costUsd: 0, responses: 0, threads: 0, unpricedModels: [] });
    const recent = await usage({ tz: "UTC" });
    const today = new Date().toISOString().slice(0, 10);
    expect(recent.until <= today).toBe(true);
    expect(Date.parse(today) - Date.parse(recent.since)).toBeLessThanOrEqual(29 * 86_400_000);
  });
});
