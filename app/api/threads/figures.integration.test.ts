/**
 * Integration test (real database) of one figure per thread: a session with a sub-agent (which has
 * a sub-agent of its own), a compaction run and a fork, written here; the thread list API, the
 * thread API (and the header's data) and GET /api/usage give the session the same tokens and cost,
 * with the same split, equal to what the thread API prices turn by turn; /usage counts nothing twice.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as forkRoute } from "@/app/api/threads/[id]/forks/route";
import { GET as usageRoute } from "@/app/api/usage/route";
import { db } from "@/lib/db/engine/client";
import { sessionFiguresOf } from "@/lib/db/usage/session-figures";
import { costText, tokenFigure, tokenText } from "@/lib/domain/usage/thread-figures";
import type { SessionFigures, SessionUsage, Thread, Turn, UsagePart } from "@/lib/domain/types";
import type { UsageReport } from "@/lib/domain/usage/usage-report";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { api, fetchThread } from "@/lib/testing/integration";

const ALL_TIME = { since: "2020-01-01", until: "2029-12-31", tz: "UTC" };
const MODEL = { modelProvider: "anthropic", modelName: "claude-sonnet-4-5" };

type Response_ = { at: string; usage?: Record<string, number>; content?: string };

/** A thread of the threadline/v1 format: a question and an answer per response, the answer with its usage when given (else none: estimated). */
function threadOf(id: string, responses: Response_[], extra: Record<string, unknown> = {}) {
  const turns = responses.flatMap((r, i) => [
    { id: randomUUID(), role: "user", content: `question ${i} of ${id.slice(0, 8)}`, timestamp: r.at },
    {
      id: randomUUID(),
      role: "assistant",
      content: r.content ?? `answer ${i}`,
      timestamp: r.at,
      ...MODEL,
      ...(r.usage ? { modelMetadata: { usage: r.usage } } : {}),
    },
  ]);
  return {
    id,
    title: `figures ${id.slice(0, 8)}`,
    toolName: "claude-code",
    source: "api",
    createdAt: responses[0]!.at,
    lastUpdatedAt: responses.at(-1)!.at,
    turns,
    ...extra,
  };
}

const subagent = (parentThreadId: string, agentId: string) => ({
  parentThreadId,
  metadata: { relation: { kind: "subagent", agentId, toolCallId: `toolu_${agentId}` } },
});

const RUN_USAGE = { input_tokens: 3, cache_read_input_tokens: 17_842, cache_creation_input_tokens: 121_689, output_tokens: 8 };

async function buildSession() {
  const [root, agent, nested] = [randomUUID(), randomUUID(), randomUUID()];
  const document = {
    format: "threadline/v1",
    threads: [
      threadOf(root, [
        {
          at: "2026-03-02T10:00:00Z",
          usage: { input_tokens: 20, cache_read_input_tokens: 90_000, cache_creation_input_tokens: 40_000, output_tokens: 300 },
        },
        {
          at: "2026-03-02T10:20:00Z",
          usage: { input_tokens: 5, cache_read_input_tokens: 99_589, cache_creation_input_tokens: 37_978, output_tokens: 463 },
        },
      ]),
      threadOf(
        agent,
        [
          {
            at: "2026-03-02T10:05:00Z",
            usage: { input_tokens: 2_408, cache_read_input_tokens: 29_274, cache_creation_input_tokens: 18_814, output_tokens: 7 },
          },
        ],
        subagent(root, "a1"),
      ),
      // A sub-agent of the sub-agent, whose source recorded no usage: estimated, so the session's figure is "~".
      threadOf(nested, [{ at: "2026-03-02T10:06:00Z", content: "a reply whose usage nobody recorded" }], subagent(agent, "a2")),
    ],
  };
  const imported = await api.importDocuments(document);
  expect(imported.status, await imported.clone().text()).toBe(201);
  // The summariser's run, as the Claude Code importer stores an acompact file's.
  await (
    await db()
  ).compactionRun.create({
    data: {
      id: randomUUID(),
      threadId: root,
      runId: "acompact-test",
      afterTurnKey: null,
      ...MODEL,
      modelName: "claude-opus-4-6",
      responses: JSON.stringify([{ key: "r1", timestamp: "2026-03-02T10:15:00Z", usage: RUN_USAGE }]),
      sourceSha256: "0".repeat(64),
      importedAt: new Date(),
    },
  });
  return { root, agent, nested };
}

async function usage(query: Record<string, string>): Promise<UsageReport> {
  const response = await usageRoute(jsonRequest("GET", `/api/usage?${new URLSearchParams(query)}`));
  expect(response.status, await response.clone().text()).toBe(200);
  return json<UsageReport>(response);
}

const TOKEN_FIELDS = ["inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens"] as const;

/** The turns' usage summed, as the thread API reports each response's. */
function usageOf(turns: Turn[]): Record<(typeof TOKEN_FIELDS)[number], number> {
  const sum = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
  for (const turn of turns) for (const field of TOKEN_FIELDS) sum[field] += turn.usage?.[field] ?? 0;
  return sum;
}

const costOf = (turns: Turn[]) => turns.reduce((n, turn) => n + (turn.cost?.priced ? turn.cost.totalUsd : 0), 0);

function expectSameFigures(actual: SessionFigures, expected: SessionFigures, where: string): void {
  expect(tokenText(actual.total), where).toBe(tokenText(expected.total));
  expect(costText(actual.total), where).toBe(costText(expected.total));
  for (const part of ["thread", "subagents", "compactionRuns"] as const) {
    for (const field of TOKEN_FIELDS) expect(actual.parts[part][field], `${where}: ${part} ${field}`).toBe(expected.parts[part][field]);
    expect(actual.parts[part].costUsd, `${where}: ${part} cost`).toBeCloseTo(expected.parts[part].costUsd, 9);
  }
  expect({ subagents: actual.subagentThreads, runs: actual.compactionRuns }, where).toEqual({
    subagents: expected.subagentThreads,
    runs: expected.compactionRuns,
  });
}

const tokensOf = (part: UsagePart) => tokenFigure(part).count;

describe("one figure per thread", () => {
  it("gives the session the same tokens and cost, with the same split, in the list, the thread API, the header and /usage", async () => {
    const { root, agent, nested } = await buildSession();

    // What the thread API prices turn by turn, and counts, for each of the three threads.
    const rootRead = await fetchThread(root);
    const agentRead = await fetchThread(agent);
    const nestedRead = await fetchThread(nested);
    const runTokens =
      RUN_USAGE.input_tokens + RUN_USAGE.cache_read_input_tokens + RUN_USAGE.cache_creation_input_tokens + RUN_USAGE.output_tokens;
    const own = usageOf(rootRead.turns);
    const subs = [usageOf(agentRead.turns), usageOf(nestedRead.turns)];
    const tokens = (u: Record<string, number>) => TOKEN_FIELDS.reduce((n, f) => n + u[f]!, 0);
    const expectedTokens = tokens(own) + subs.reduce((n, u) => n + tokens(u), 0) + runTokens;

    // The thread API: its figures agree with the session's usage and cost it computes itself.
    const figures = rootRead.thread.figures!;
    const session = rootRead.thread.usageWithSubagents as SessionUsage;
    expect(tokensOf(figures.total)).toBe(expectedTokens);
    expect(tokensOf(figures.total)).toBe(TOKEN_FIELDS.reduce((n, f) => n + session[f], 0));
    expect(tokenFigure(figures.total).approximate).toBe(true);
    expect(figures.total.estimatedResponses).toBe(1);
    expect(figures.total.costUsd).toBeCloseTo(rootRead.thread.costWithSubagents!.totalUsd, 9);
    expect(figures.parts.thread.costUsd).toBeCloseTo(costOf(rootRead.turns), 9);
    expect(tokensOf(figures.parts.thread)).toBe(tokens(own));
    expect(figures.parts.subagents.costUsd).toBeCloseTo(costOf(agentRead.turns) + costOf(nestedRead.turns), 9);
    expect(tokensOf(figures.parts.subagents)).toBe(tokens(subs[0]!) + tokens(subs[1]!));
    expect(tokensOf(figures.parts.compactionRuns)).toBe(runTokens);
    expect(figures.parts.compactionRuns.costUsd).toBeGreaterThan(0);
    expect(figures.parts.compactionRuns.costUsd).toBeCloseTo(
      rootRead.thread.costWithSubagents!.totalUsd - rootRead.thread.cost!.totalUsd - figures.parts.subagents.costUsd,
      9,
    );
    expect(figures).toMatchObject({ subagentThreads: 2, compactionRuns: 1 });

    // The header's data (app/threads/[id]/layout.tsx) is the thread API's.
    expectSameFigures((await sessionFiguresOf([root])).get(root)!, figures, "header");

    // The thread list API: the same figures on the session's row.
    const listed = await json<{ items: Thread[] }>(await api.listThreads({ limit: "50" }));
    expectSameFigures(listed.items.find((t) => t.id === root)!.figures!, figures, "list");

    // /usage: one row for the session, its sub-agents' rows added to it, none of their own.
    const byThread = await usage({ ...ALL_TIME, groupBy: "thread" });
    const row = byThread.rows.find((r) => r.key === root)!;
    expect(byThread.rows.map((r) => r.key)).not.toContain(agent);
    expect(byThread.rows.map((r) => r.key)).not.toContain(nested);
    expectSameFigures(row.figures!, figures, "/usage");
    expect(row.threads).toBe(3);
    expect(row.costUsd).toBeCloseTo(figures.total.costUsd, 9);
    // Totals count every response once: the rows' sum, the days' sum, the session's figure.
    const byDay = await usage({ ...ALL_TIME, groupBy: "day" });
    expect(byThread.totals.costUsd).toBeCloseTo(
      byThread.rows.reduce((n, r) => n + r.costUsd, 0),
      9,
    );
    expect(byDay.totals.costUsd).toBeCloseTo(byThread.totals.costUsd, 9);
    expect(byDay.totals.costUsd).toBeCloseTo(figures.total.costUsd, 9);
    expect(byThread.totals.responses).toBe(figures.total.responses);
    expect(TOKEN_FIELDS.reduce((n, f) => n + byDay.totals[f], 0)).toBe(expectedTokens);
    expect(byThread.totals.threads).toBe(3);

    // A sub-agent's own row in the list is its own session: itself and its sub-agent, nothing of its parent's.
    const agentFigures = listed.items.find((t) => t.id === agent)!.figures!;
    expect(tokensOf(agentFigures.total)).toBe(tokens(subs[0]!) + tokens(subs[1]!));
    expect(agentFigures).toMatchObject({ subagentThreads: 1, compactionRuns: 0 });
  });

  it("leaves a fork's copies to its source, and /usage splits out only the compaction runs its filters keep", async () => {
    const { root } = await buildSession();
    const before = (await fetchThread(root)).thread.figures!;
    const totalsBefore = (await usage({ ...ALL_TIME, groupBy: "thread" })).totals;
    const forked = await forkRoute(jsonRequest("POST", `/api/threads/${root}/forks`, { atTurn: 3 }), params({ id: root }));
    expect(forked.status, await forked.clone().text()).toBe(201);
    const fork = (await json<{ thread: Thread }>(forked)).thread;
    // The fork holds copies of four turns (two responses) and nothing of its own: nothing used.
    const forkRead = await fetchThread(fork.id);
    expect(forkRead.turns.filter((t) => t.usage)).toHaveLength(2);
    expect(forkRead.thread.figures!.total.responses).toBe(0);
    // The source's figure is unchanged (a fork is no sub-agent), and the totals did not grow.
    expectSameFigures((await fetchThread(root)).thread.figures!, before, "after the fork");
    const byThread = await usage({ ...ALL_TIME, groupBy: "thread" });
    expect(byThread.rows.map((r) => r.key)).not.toContain(fork.id);
    expect(byThread.totals.responses).toBe(totalsBefore.responses);
    expect(byThread.totals.costUsd).toBeCloseTo(totalsBefore.costUsd, 9);

    // Only the thread's model (the run used another): the session's row has no run in it, and no negative share.
    const day = await usage({ since: "2026-03-02", until: "2026-03-02", tz: "UTC", groupBy: "thread", model: "claude-sonnet-4-5" });
    const row = day.rows.find((r) => r.key === root)!;
    expect(row.figures!.compactionRuns).toBe(0);
    expect(tokensOf(row.figures!.parts.compactionRuns)).toBe(0);
    expect(row.figures!.parts.thread).toEqual(before.parts.thread);
  });
});
