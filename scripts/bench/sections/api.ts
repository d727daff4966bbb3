// The REST API under load: the list, search, one big thread, appends.
import { performance } from "node:perf_hooks";
import { CONFIG, SEARCH_FILTERS, SEARCH_TERMS, STRESS_SEARCH_TERMS, TARGETS } from "../config";
import { assistantContent, userContent } from "../generate";
import { measure, summarize } from "../measure";
import { Bench, fmtBytes } from "../section";
import { ApiThread, ApiTurn, getBody, getJson, postJson } from "../server";
import { Selectivity } from "../store";

export async function sectionList(bench: Bench): Promise<void> {
  let bytes = 0;
  const first = await measure("list", async () => (bytes = await getBody(bench.baseUrl, "/api/threads?limit=25")), CONFIG.iterations.list);
  bench.record({
    section: "list",
    name: "GET /api/threads?limit=25 (first page)",
    stats: first,
    target: { metric: "p50", maxMs: TARGETS.listP50 },
    note: `${fmtBytes(bytes)} body`,
  });
  // A deeper page through the cursor: the keyset path.
  const page = await getJson<{ nextCursor: string | null }>(bench.baseUrl, "/api/threads?limit=25");
  let cursor = page.nextCursor;
  for (let i = 0; i < 20 && cursor; i++) {
    cursor = (await getJson<{ nextCursor: string | null }>(bench.baseUrl, `/api/threads?limit=25&cursor=${encodeURIComponent(cursor)}`))
      .nextCursor;
  }
  if (cursor) {
    const deep = await measure(
      "list page 22",
      () => getBody(bench.baseUrl, `/api/threads?limit=25&cursor=${encodeURIComponent(cursor!)}`),
      CONFIG.iterations.listPage2,
    );
    bench.record({ section: "list", name: "GET /api/threads?limit=25&cursor=... (page 22)", stats: deep });
  }
  const tool = await measure(
    "list by tool",
    () => getBody(bench.baseUrl, "/api/threads?limit=25&tool=codereview"),
    CONFIG.iterations.listPage2,
  );
  bench.record({ section: "list", name: "GET /api/threads?limit=25&tool=codereview", stats: tool });
}

export async function sectionSearch(bench: Bench): Promise<void> {
  const all: number[] = [];
  const chainThreads = bench.fill.chains.reduce((sum, c) => sum + c.threads, 0);
  const selectivity: Record<string, Selectivity> = {};
  for (const { label, q } of [...SEARCH_TERMS, ...STRESS_SEARCH_TERMS]) {
    const sel = await bench.store.selectivity(q);
    selectivity[q] = sel;
    let hits = 0;
    const pathname = `/api/threads?limit=25&q=${encodeURIComponent(q)}`;
    const result = await measure(
      `search ${q}`,
      async () => {
        const body = await getJson<{ items: unknown[] }>(bench.baseUrl, pathname);
        hits = body.items.length;
      },
      CONFIG.iterations.search,
    );
    const stress = STRESS_SEARCH_TERMS.some((s) => s.q === q);
    if (!stress) all.push(...result.samples);
    bench.record({
      section: "search",
      name: `q=${JSON.stringify(q)} (${label}${stress ? ", no target" : ""})`,
      stats: result,
      target: stress ? undefined : { metric: "p50", maxMs: TARGETS.searchP50 },
      note: `matches ${sel.turns} turns / ${sel.threads} threads (${((100 * sel.threads) / (CONFIG.threads + chainThreads)).toFixed(1)}%), page ${hits}`,
    });
  }
  bench.record({
    section: "search",
    name: "search, all terms above (no stress)",
    stats: summarize(all),
    target: { metric: "p50", maxMs: TARGETS.searchP50 },
  });
  bench.facts.searchSelectivity = selectivity;
  await measureFilteredSearch(bench);
  await measureSearchHits(bench);
}

/** The list's search narrowed by a filter: the words' matches come from the index first, whatever the filter. */
async function measureFilteredSearch(bench: Bench): Promise<void> {
  const all: number[] = [];
  for (const { label, q } of SEARCH_TERMS) {
    for (const filter of SEARCH_FILTERS) {
      const result = await measure(
        `search ${q} ${filter}`,
        () => getBody(bench.baseUrl, `/api/threads?limit=25&q=${encodeURIComponent(q)}&${filter}`),
        CONFIG.iterations.filteredSearch,
      );
      all.push(...result.samples);
      bench.record({ section: "search", name: `q=${JSON.stringify(q)} (${label}) & ${filter}`, stats: result });
    }
  }
  bench.record({
    section: "search",
    name: `list search with a filter (${SEARCH_FILTERS.join(", ")}), all terms above`,
    stats: summarize(all),
    target: { metric: "p95", maxMs: TARGETS.searchFilteredP95 },
  });
}

/** GET /api/search: the best hits of the newest matching turns, each with its snippet. */
async function measureSearchHits(bench: Bench): Promise<void> {
  const all: number[] = [];
  for (const { label, q } of SEARCH_TERMS) {
    let hits = 0;
    const result = await measure(
      `hits ${q}`,
      async () => {
        hits = (await getJson<{ items: unknown[] }>(bench.baseUrl, `/api/search?q=${encodeURIComponent(q)}`)).items.length;
      },
      CONFIG.iterations.search,
    );
    all.push(...result.samples);
    bench.record({ section: "search", name: `GET /api/search?q=${JSON.stringify(q)} (${label})`, stats: result, note: `page ${hits}` });
  }
  bench.record({
    section: "search",
    name: "GET /api/search, all terms above",
    stats: summarize(all),
    target: { metric: "p95", maxMs: TARGETS.searchHitsP95 },
  });
}

export async function sectionBigThread(bench: Bench): Promise<void> {
  const id = bench.fill.bigThreadId;
  // GET /api/threads/:id answers at most 1,000 turns; the rest come from the paged endpoint.
  const check = await getJson<{ turns: unknown[]; turnsTruncated?: boolean }>(bench.baseUrl, `/api/threads/${id}`);
  const expected = Math.min(CONFIG.bigThreadTurns, 1_000);
  if (check.turns.length !== expected || Boolean(check.turnsTruncated) !== CONFIG.bigThreadTurns > 1_000) {
    throw new Error(`big thread: ${check.turns.length} turns${check.turnsTruncated ? " (truncated)" : ""}, expected ${expected}`);
  }
  let bytes = 0;
  const result = await measure(
    "big thread",
    async () => (bytes = await getBody(bench.baseUrl, `/api/threads/${id}`)),
    CONFIG.iterations.bigThread,
  );
  bench.record({
    section: "thread",
    name: `GET /api/threads/:id (${CONFIG.bigThreadTurns} turns: the first ${expected} answered)`,
    stats: result,
    target: { metric: "p50", maxMs: TARGETS.bigThreadP50 },
    note: `${fmtBytes(bytes)} body`,
  });
  // A page of turns anywhere in the thread costs what the first does (keyset on the index).
  for (const from of [0, CONFIG.bigThreadTurns - 100]) {
    let pageBytes = 0;
    const page = await measure(
      `turns from ${from}`,
      async () => (pageBytes = await getBody(bench.baseUrl, `/api/threads/${id}/turns?from=${from}&limit=100`)),
      CONFIG.iterations.bigThread,
    );
    bench.record({
      section: "thread",
      name: `GET /api/threads/:id/turns?from=${from}&limit=100`,
      stats: page,
      note: `${fmtBytes(pageBytes)} body`,
    });
  }
  // The thread page as a browser first gets it: its HTML (the first turns, the rest on demand).
  let html = 0;
  const pageLoad = await measure(
    "thread page",
    async () => (html = await getBody(bench.baseUrl, `/threads/${id}`)),
    CONFIG.iterations.bigThread,
  );
  bench.record({
    section: "thread",
    name: `/threads/:id page HTML (${CONFIG.bigThreadTurns} turns)`,
    stats: pageLoad,
    note: `${fmtBytes(html)} of HTML`,
  });
}

/**
 * WRITERS concurrent writers each post TURNS_PER_WRITER turns, into one shared thread or one
 * thread each; then checks in the database that every turn is there exactly once, indices are
 * 0..n-1 and the thread's counters match.
 */
async function appendRun(bench: Bench, mode: "one thread" | "thread per writer"): Promise<void> {
  const { writers, turnsPerWriter } = CONFIG;
  const threadIds: string[] = [];
  for (let w = 0; w < (mode === "one thread" ? 1 : writers); w++) {
    const created = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", {
      toolName: "bench",
      title: `bench append ${mode} ${w}`,
    });
    if (created.status !== 201) throw new Error(`POST /api/threads -> ${created.status}`);
    threadIds.push(created.json.thread.id);
  }
  const bodies = Array.from({ length: writers }, (_, w) =>
    Array.from({ length: turnsPerWriter }, (_, n) => ({
      role: n % 2 === 0 ? "user" : "assistant",
      content: `bench w${w} n${n}: ${n % 2 === 0 ? userContent() : assistantContent()}`,
      ...(n % 2 === 1 ? { modelProvider: "anthropic", modelName: "claude-sonnet-4-5" } : {}),
      toolName: "bench",
    })),
  );
  const latencies: number[] = [];
  const posted: { threadId: string; id: string; index: number; tokens: number }[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    bodies.map(async (list, w) => {
      const threadId = threadIds[mode === "one thread" ? 0 : w]!;
      for (const body of list) {
        const t0 = performance.now();
        const res = await postJson<{ turn?: ApiTurn; error?: { message: string } }>(bench.baseUrl, `/api/threads/${threadId}/turns`, body);
        latencies.push(performance.now() - t0);
        if (res.status !== 201 || !res.json.turn) failures.push(`${res.status} ${res.json.error?.message ?? ""}`);
        else posted.push({ threadId, id: res.json.turn.id, index: res.json.turn.index, tokens: res.json.turn.tokenEstimate });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const total = writers * turnsPerWriter;

  // Verification, straight from the database (SQLite's WAL lets it read while the server runs).
  const problems: string[] = [...new Set(failures)]
    .slice(0, 5)
    .map((f) => `request failed: ${f} (x${failures.filter((x) => x === f).length})`);
  for (const threadId of threadIds) {
    const expected = posted.filter((p) => p.threadId === threadId);
    const wantCount = mode === "one thread" ? total : turnsPerWriter;
    const { turnCount, tokenEstimate, turns } = await bench.store.storedThread(threadId);
    const tokenSum = expected.reduce((a, p) => a + p.tokens, 0);
    const ids = new Set(turns.map((t) => t.id));
    if (turns.length !== wantCount) problems.push(`thread ${threadId}: ${turns.length} turns stored, ${wantCount} posted`);
    if (turnCount !== turns.length) problems.push(`thread ${threadId}: turnCount ${turnCount} but ${turns.length} turns`);
    if (tokenEstimate !== tokenSum) problems.push(`thread ${threadId}: tokenEstimate ${tokenEstimate}, expected ${tokenSum}`);
    if (turns.some((t, i) => t.index !== i)) problems.push(`thread ${threadId}: indices are not 0..${turns.length - 1}`);
    const missing = expected.filter((p) => !ids.has(p.id)).length;
    if (missing > 0) problems.push(`thread ${threadId}: ${missing} acknowledged turns missing`);
  }
  const rate = posted.length / seconds;
  bench.record({
    section: "append",
    name: `append, ${writers} writers x ${turnsPerWriter} turns, ${mode}`,
    value: rate,
    unit: "turns/s",
    stats: summarize(latencies),
    note: `${posted.length}/${total} in ${seconds.toFixed(1)} s; ${problems.length === 0 ? "verified: no turn lost" : `VERIFY FAILED: ${problems.join("; ")}`}`,
  });
  if (problems.length > 0) bench.facts.appendFailures = [...((bench.facts.appendFailures as string[]) ?? []), ...problems];
}

export async function sectionAppend(bench: Bench): Promise<void> {
  // Warm the write path (route compilation, first transaction) outside the timed runs.
  const warm = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", { toolName: "bench", title: "bench warm-up" });
  for (let i = 0; i < 20; i++)
    await postJson(bench.baseUrl, `/api/threads/${warm.json.thread.id}/turns`, { role: "user", content: `warm-up ${i}` });
  // One writer, one request at a time: the cost of a single append without contention.
  const single = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", {
    toolName: "bench",
    title: "bench append sequential",
  });
  const sequential = await measure(
    "append sequential",
    async (i) => {
      const res = await postJson(bench.baseUrl, `/api/threads/${single.json.thread.id}/turns`, {
        role: i % 2 === 0 ? "user" : "assistant",
        content: `bench sequential ${i}: ${assistantContent()}`,
      });
      if (res.status !== 201) throw new Error(`POST turns -> ${res.status}`);
    },
    200,
    { warmup: 0 },
  );
  bench.record({
    section: "append",
    name: "POST /api/threads/:id/turns, 1 writer, sequential",
    stats: sequential,
    value: 1000 / sequential.mean,
    unit: "turns/s",
  });
  await appendRun(bench, "one thread");
  await appendRun(bench, "thread per writer");
}
