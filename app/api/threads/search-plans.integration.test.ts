import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { containsPattern, run, searchThreadIds, threadSearchStatement, type Statement, type ThreadSearch } from "@/lib/db/engine/dialect";
import { rankedHitsStatement } from "@/lib/db/threads/search";
import { searchTerms } from "@/lib/domain/threads/search";
import { json } from "@/lib/testing/api";
import { api } from "@/lib/testing/integration";

/**
 * The list search picks a plan by how many turns match (lib/db/engine/dialect.ts): each must return the
 * same threads in the same order, page after page. "widespread" matches 6,000 of 7,200 turns (the
 * walk-threads plan; on SQLite, each walked thread's own matches); "ancient" matches 5,400, in the
 * oldest threads only (on SQLite the same, until the walked window comes up short); "scarce"
 * matches a handful (the look-up-each-match plan).
 */
const THREADS = 120;
const TURNS_PER_THREAD = 60;

function corpus() {
  const base = Date.parse("2026-05-01T00:00:00.000Z");
  return {
    format: "threadline/v1",
    threads: Array.from({ length: THREADS }, (_, t) => ({
      id: randomUUID(),
      title: `Thread ${t}`,
      toolName: "chat",
      createdAt: new Date(base + t * 60_000).toISOString(),
      lastUpdatedAt: new Date(base + t * 60_000).toISOString(),
      turns: Array.from({ length: TURNS_PER_THREAD }, (_, i) => ({
        id: randomUUID(),
        role: i % 2 ? "assistant" : "user",
        // Every 6th thread never mentions the common word; every 40th thread has the rare one.
        content: `${t % 6 === 0 ? "quiet" : "widespread"} turn ${i}${t % 40 === 7 && i === 5 ? " scarce" : ""}${t < 90 ? " ancient" : ""}`,
        timestamp: new Date(base + t * 60_000).toISOString(),
      })),
    })),
  };
}

async function allPages(q: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response: Response = await api.listThreads({ q, limit: "25", ...(cursor ? { cursor } : {}) });
    expect(response.status).toBe(200);
    const page = await json<{ items: { id: string }[]; nextCursor: string | null }>(response);
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

type PlanStep = { table: string | null; index: string | null; fullScan: boolean; text: string };

/**
 * The steps of a statement's plan, as either database describes them: what each reads, through
 * which index, and whether it reads the whole table (SQLite's "SCAN x" without an index, a
 * PostgreSQL Seq Scan). SQLite names tables by alias: the search statements call turns u.
 */
async function planSteps(statement: Statement): Promise<PlanStep[]> {
  const client = await db();
  const kind = databaseKind(client);
  if (kind === "sqlite") {
    const rows = await run<{ detail: string }[]>(client, kind, `EXPLAIN QUERY PLAN ${statement.sql}`, ...statement.params);
    return rows.map(({ detail }) => {
      const [, verb, table, index] =
        /^(SCAN|SEARCH) (\S+)(?: USING (?:COVERING )?INDEX (\S+)| USING INTEGER PRIMARY KEY| VIRTUAL TABLE INDEX)?/.exec(detail) ?? [];
      return {
        table: table ?? null,
        index: index ?? null,
        fullScan: verb === "SCAN" && !/ USING | VIRTUAL TABLE /.test(detail),
        text: detail,
      };
    });
  }
  // These tables are small enough that reading them whole is PostgreSQL's best plan; with whole reads
  // priced out, one is still chosen only where no index can serve (a filter that hides the GIN index).
  const [row] = await client.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    return run<{ "QUERY PLAN": unknown }[]>(tx, kind, `EXPLAIN (FORMAT JSON) ${statement.sql}`, ...statement.params);
  });
  const document = typeof row!["QUERY PLAN"] === "string" ? JSON.parse(row!["QUERY PLAN"]) : row!["QUERY PLAN"];
  type Node = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: Node[] };
  const steps: PlanStep[] = [];
  const walk = (node: Node) => {
    steps.push({
      table: node["Relation Name"] ?? null,
      index: node["Index Name"] ?? null,
      fullScan: node["Node Type"] === "Seq Scan",
      text: `${node["Node Type"]} ${node["Relation Name"] ?? ""} ${node["Index Name"] ?? ""}`.trim(),
    });
    node.Plans?.forEach(walk);
  };
  walk((document as { Plan: Node }[])[0]!.Plan);
  return steps;
}

const FILTERS: { label: string; filter: Partial<ThreadSearch> }[] = [
  { label: "no filter", filter: {} },
  { label: "project", filter: { project: "/home/user/project-1" } },
  { label: "source", filter: { source: "import:claude-code" } },
  { label: "model", filter: { modelName: "claude-opus-4-6" } },
  { label: "tool", filter: { toolKey: "claude-code:Bash" } },
  {
    label: "all of them",
    filter: { project: "/home/user/project-1", source: "import:claude-code", modelName: "claude-opus-4-6", toolKey: "claude-code:Bash" },
  },
];

const readsTurns = (step: PlanStep) => step.table === "Turn" || step.table === "u";
/** The full-text index read: FTS5's table, or PostgreSQL's GIN index on the turns' words. */
const readsWordIndex = (step: PlanStep) => step.table === "TurnSearch" || step.index === "Turn_searchVector_idx";

describe("search plans", () => {
  const doc = corpus();
  beforeAll(async () => {
    expect((await api.importDocuments(doc)).status).toBe(201);
  });

  it("return the same threads, newest first, for common and rare terms", async () => {
    const newestFirst = [...doc.threads].reverse();

    const common = await allPages("widespread");
    expect(common).toEqual(newestFirst.filter((_, i) => (THREADS - 1 - i) % 6 !== 0).map((t) => t.id));
    expect(common).toHaveLength(100);

    const rare = await allPages("scarce");
    expect(rare).toEqual(newestFirst.filter((_, i) => (THREADS - 1 - i) % 40 === 7).map((t) => t.id));
    expect(rare).toHaveLength(3);

    const old = await allPages("ancient");
    expect(old).toEqual(newestFirst.slice(THREADS - 90).map((t) => t.id));
  });

  it("on SQLite, walk a word in most turns thread by thread, and search again when the newest threads hold less than a page", async () => {
    const client = await db();
    const sqlite = databaseKind(client) === "sqlite";
    const search = (q: string, limit: number) => ({ terms: searchTerms(q), titlePattern: containsPattern(q), limit, reader: null });
    // Five per page: the walk covers the 20 newest threads, which "ancient" is not in.
    for (const [q, limit] of [
      ["widespread", 5],
      ["ancient", 5],
      ["ancient", 25],
    ] as const) {
      const statement = await threadSearchStatement(client, search(q, limit));
      expect(statement.unlessFull !== undefined, q).toBe(sqlite);
      const ids = await searchThreadIds(client, search(q, limit));
      expect(ids, `${q}, ${limit} a page`).toEqual(await searchThreadIds(client, { ...search(q, limit), widespread: false }));
      expect(ids).toHaveLength(limit);
    }
    const newestOld = [...doc.threads]
      .slice(0, 90)
      .reverse()
      .slice(0, 5)
      .map((t) => t.id);
    expect(await searchThreadIds(client, search("ancient", 5))).toEqual(newestOld);
  });

  it.each(FILTERS)("never read every turn for a filter ($label): the list's search, common and rare words", async ({ filter }) => {
    const client = await db();
    for (const q of ["widespread", "ancient", "scarce"]) {
      const statement = await threadSearchStatement(client, {
        terms: searchTerms(q),
        titlePattern: containsPattern(q),
        ...filter,
        limit: 26,
        reader: null,
      });
      const steps = await planSteps(statement);
      expect(
        steps.filter((step) => readsTurns(step) && step.fullScan).map((step) => step.text),
        `${q}: ${statement.sql}`,
      ).toEqual([]);
      // A rare word's threads come from its matches in the index, whatever else narrows them.
      if (q === "scarce") expect(steps.some(readsWordIndex), steps.map((step) => step.text).join("\n")).toBe(true);
    }
  });

  it("rank hits (GET /api/search) from the index's matches, never reading every turn", async () => {
    const client = await db();
    for (const q of ["widespread", "scarce"]) {
      const statement = await rankedHitsStatement(client, searchTerms(q), null, 21, null);
      const steps = await planSteps(statement);
      expect(
        steps.filter((step) => readsTurns(step) && step.fullScan).map((step) => step.text),
        q,
      ).toEqual([]);
      if (q === "scarce") expect(steps.some(readsWordIndex), steps.map((step) => step.text).join("\n")).toBe(true);
    }
  });
});
