// Context previews over long chains: cold first request, then warm; and the orchestrator handoff of the same chains.
import { performance } from "node:perf_hooks";
import { CONFIG, TARGETS } from "../config";
import { sentence } from "../generate";
import { measure, summarize } from "../measure";
import { Bench, fmtBytes, fmtMs } from "../section";
import { getBody, getJson, postJson } from "../server";

type ApiContextPreview = {
  tokenizer: { id: string };
  exact: boolean;
  allocation: { total: number; history: number };
  files: { included: unknown[]; skipped: unknown[] };
  turns: { total: number; includedCount: number; excludedCount: number; firstIncluded: number | null };
  perTurn?: unknown[];
  totalTokens: number;
  text: string;
};

/** GET that parses the JSON body and also returns its size and the wall time until it was read. */
async function getJsonSized<T>(
  baseUrl: string,
  pathname: string,
  { allowError = false } = {},
): Promise<{ json: T; bytes: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(baseUrl + pathname);
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  const text = Buffer.from(body).toString("utf8");
  if (!res.ok && !allowError) throw new Error(`GET ${pathname} -> ${res.status}: ${text.slice(0, 300)}`);
  return { json: JSON.parse(text) as T, bytes: body.byteLength, ms };
}

/**
 * buildContextPreview in this process, on the server's database, with the server's settings: the
 * preview's own cost. Loaded on first use (the app's modules read DATABASE_URL when first used).
 */
async function inProcessPreview(databaseUrl: string): Promise<(threadId: string, query: Record<string, unknown>) => Promise<unknown>> {
  process.env.DATABASE_URL = databaseUrl;
  process.env.MAX_CONVERSATION_TURNS = String(CONFIG.maxConversationTurns);
  process.env.CONVERSATION_TIMEOUT_HOURS = "0";
  const { buildContextPreview } = await import("../../../lib/context/build-context");
  return (threadId, query) => buildContextPreview(threadId, query as Parameters<typeof buildContextPreview>[1]);
}

function describePreview(preview: ApiContextPreview, bytes: number): string {
  return (
    `${fmtBytes(bytes)} body (text ${fmtBytes(Buffer.byteLength(preview.text))}${preview.perTurn ? `, perTurn ${preview.perTurn.length}` : ""}); ` +
    `${preview.turns.includedCount} turns included, ${preview.totalTokens} tokens of ${preview.allocation.history} history budget; ` +
    `files ${preview.files.included.length} in / ${preview.files.skipped.length} skipped`
  );
}

const EXACT = "model=gpt-4o";
const PAL = "contextWindow=200000&mode=pal";

type Chain = Bench["fill"]["chains"][number];
/** A note comparing a p50 with the yardstick's (empty without one). */
type RatioNote = (p50: number) => string;

const turnsOf = (preview: ApiContextPreview) => preview.turns.total;
const contextUrl = (chain: Chain, query: string) => `/api/threads/${chain.lastThreadId}/context?${query}`;
const targetMs = (chain: Chain) => (chain.turns >= 10_000 ? TARGETS.contextP50 : TARGETS.context1kP50);

/**
 * Context preview (GET /api/threads/:id/context) over each chain, from its last thread: exact
 * mode for gpt-4o (o200k_base) and PAL mode at a 200,000-token window. The fill stores no per-turn
 * counts (as for imported turns), so the first request counts and stores them: timed on its own.
 */
export async function sectionContext(bench: Bench): Promise<void> {
  // Load the route's modules on an ordinary thread first, so that no chain figure includes it.
  const someThread = (await getJson<{ items: { id: string }[] }>(bench.baseUrl, "/api/threads?limit=1")).items[0]!.id;
  await getBody(bench.baseUrl, `/api/threads/${someThread}/context?${PAL}`);
  await getBody(bench.baseUrl, `/api/threads/${someThread}/context?${EXACT}`);
  const ratioNote = await measureYardstick(bench);
  await measureHttpFloor(bench);

  const facts: Record<string, unknown> = {};
  for (const chain of bench.fill.chains) {
    const shape = chain.threads === 1 ? "one thread" : `${chain.threads} threads x ${chain.turnsPerThread}`;
    const label = `${chain.turns.toLocaleString("en-US")} turns (${shape})`;
    await measureColdPreview(bench, chain, label);
    await measureWarmPreviews(bench, chain, label, ratioNote, facts);
    await measureInProcessPreviews(bench, chain, label);
    await measurePerTurnPreview(bench, chain, label);
    await measureHandoffs(bench, chain, label);
    if (chain === bench.fill.chains.at(-1)) {
      await measureAfterAppends(bench, chain, label, ratioNote);
      await measureOtherTokenizerCold(bench, chain, label);
    }
  }
  bench.facts.context = facts;
}

/** The yardstick: a thread of about 10 turns, previewed the same way. Answers the note comparing a p50 with it. */
async function measureYardstick(bench: Bench): Promise<RatioNote> {
  const short = (await getJson<{ items: { id: string; turnCount: number }[] }>(bench.baseUrl, "/api/threads?limit=100")).items.find(
    (t) => t.turnCount >= 8 && t.turnCount <= 12,
  );
  if (!short) return () => "";
  const shortUrl = `/api/threads/${short.id}/context?${EXACT}`;
  const stats = await measure(
    `context ${short.turnCount} turns`,
    () => getJsonSized<ApiContextPreview>(bench.baseUrl, shortUrl),
    CONFIG.contextIterations,
    { warmup: 2 },
  );
  bench.record({ section: "context", name: `context ${short.turnCount}-turn thread, gpt-4o exact, warm (the yardstick)`, stats });
  const shortP50 = stats.p50;
  return (p50) =>
    shortP50 ? `; ${(p50 / shortP50).toFixed(1)}x the ${short.turnCount}-turn thread's p50 (target <= ${TARGETS.contextRatio}x)` : "";
}

/** What any route costs here: a 404 that reads nothing (Next.js routing, the request guard, HTTP). */
async function measureHttpFloor(bench: Bench): Promise<void> {
  const floor = await measure(
    "http floor",
    () => getJsonSized(bench.baseUrl, "/api/no-such-endpoint", { allowError: true }),
    CONFIG.contextIterations * 5,
    { warmup: 5 },
  );
  bench.record({ section: "context", name: "HTTP floor: GET of an unknown /api path (a JSON 404, no database)", stats: floor });
}

/** The first preview of the chain: it counts and stores the o200k counts of every turn. */
async function measureColdPreview(bench: Bench, chain: Chain, label: string): Promise<void> {
  const storedBefore = await bench.store.storedTokenCounts(chain.threadIds, "o200k_base");
  const cold = await getJsonSized<ApiContextPreview>(bench.baseUrl, contextUrl(chain, EXACT));
  if (turnsOf(cold.json) !== chain.turns)
    throw new Error(`context ${chain.label}: the preview has ${turnsOf(cold.json)} turns, expected ${chain.turns}`);
  if (cold.json.tokenizer.id !== "o200k_base")
    throw new Error(`context ${chain.label}: tokenizer ${cold.json.tokenizer.id}, expected o200k_base`);
  const storedAfter = await bench.store.storedTokenCounts(chain.threadIds, "o200k_base");
  bench.record({
    section: "context",
    name: `context ${label}, gpt-4o exact, COLD (first request)`,
    value: cold.ms,
    unit: "ms",
    note: `counted and stored ${storedAfter - storedBefore} o200k turn counts (${storedBefore} before)`,
  });
}

async function measureWarmPreviews(
  bench: Bench,
  chain: Chain,
  label: string,
  ratioNote: RatioNote,
  facts: Record<string, unknown>,
): Promise<void> {
  for (const [mode, query] of [
    ["gpt-4o exact", EXACT],
    ["window 200000 pal", PAL],
  ] as const) {
    let last: { json: ApiContextPreview; bytes: number } | undefined;
    const warm = await measure(
      `context ${chain.label} ${mode}`,
      async () => (last = await getJsonSized<ApiContextPreview>(bench.baseUrl, contextUrl(chain, query))),
      CONFIG.contextIterations,
      { warmup: 2 },
    );
    if (turnsOf(last!.json) !== chain.turns)
      throw new Error(`context ${chain.label} ${mode}: the preview has ${turnsOf(last!.json)} turns, expected ${chain.turns}`);
    bench.record({
      section: "context",
      name: `context ${label}, ${mode}, warm`,
      stats: warm,
      target: { metric: "p50", maxMs: targetMs(chain) },
      note: describePreview(last!.json, last!.bytes) + ratioNote(warm.p50),
    });
    facts[`${chain.label} ${mode}`] = {
      bytes: last!.bytes,
      textBytes: Buffer.byteLength(last!.json.text),
      includedTurns: last!.json.turns.includedCount,
      totalTokens: last!.json.totalTokens,
    };
  }
}

/** The same previews in this process, without HTTP: buildContextPreview and its JSON. */
async function measureInProcessPreviews(bench: Bench, chain: Chain, label: string): Promise<void> {
  const preview = await inProcessPreview(bench.databaseUrl);
  for (const [mode, query] of [
    ["gpt-4o exact", { mode: "exact", model: "gpt-4o" }],
    ["window 200000 pal", { mode: "pal", contextWindow: 200_000 }],
  ] as const) {
    const stats = await measure(
      `context ${chain.label} ${mode} in process`,
      async () => JSON.stringify(await preview(chain.lastThreadId, query)),
      CONFIG.contextIterations * 2,
      { warmup: 2 },
    );
    bench.record({
      section: "context",
      name: `context ${label}, ${mode}, in the server's code without HTTP`,
      stats,
      target: { metric: "p50", maxMs: targetMs(chain) },
    });
  }
}

/** What the budget page asks: the same preview with every turn's tokens (perTurn=1), which costs what the chain's length does. */
async function measurePerTurnPreview(bench: Bench, chain: Chain, label: string): Promise<void> {
  let last: { json: ApiContextPreview; bytes: number } | undefined;
  const withTurns = await measure(
    `context ${chain.label} perTurn`,
    async () => (last = await getJsonSized<ApiContextPreview>(bench.baseUrl, contextUrl(chain, `${EXACT}&perTurn=1`))),
    CONFIG.contextIterations,
    { warmup: 2 },
  );
  if (last!.json.perTurn?.length !== chain.turns)
    throw new Error(`context ${chain.label}: perTurn has ${last!.json.perTurn?.length} turns, expected ${chain.turns}`);
  bench.record({
    section: "context",
    name: `context ${label}, gpt-4o exact, with perTurn=1 (the budget page)`,
    stats: withTurns,
    note: describePreview(last!.json, last!.bytes),
  });
}

/**
 * The orchestrator handoff of the whole chain (GET /handoff?chain=1): every turn read, stripped
 * and cut; with model=, its text counted too (the budget page's "Orchestrator handoff").
 */
async function measureHandoffs(bench: Bench, chain: Chain, label: string): Promise<void> {
  for (const [mode, query] of [
    ["text only", "format=orchestrator&chain=1"],
    ["counted for gpt-4o", "format=orchestrator&chain=1&model=gpt-4o"],
  ] as const) {
    let last: { json: { conversationMessagesCount: number; range: { total: number }; text: string }; bytes: number } | undefined;
    const handoffUrl = `/api/threads/${chain.lastThreadId}/handoff?${query}`;
    const stats = await measure(
      `handoff ${chain.label} ${mode}`,
      async () => (last = await getJsonSized(bench.baseUrl, handoffUrl)),
      CONFIG.contextIterations,
      { warmup: 2 },
    );
    if (last!.json.range.total < chain.turns)
      throw new Error(`handoff ${chain.label}: ${last!.json.range.total} turns, expected at least ${chain.turns}`);
    bench.record({
      section: "context",
      name: `handoff ${label}, chain=1, ${mode}, warm`,
      stats,
      note: `${fmtBytes(last!.bytes)} body (text ${fmtBytes(Buffer.byteLength(last!.json.text))}); ${last!.json.conversationMessagesCount} messages`,
    });
  }
}

/**
 * The outline cache serves repeated previews of unchanged threads; after an append the thread
 * appended to is read again, the rest of the chain comes from the cache. Timed: the preview
 * only, one append before each.
 */
async function measureAfterAppends(bench: Bench, chain: Chain, label: string, ratioNote: RatioNote): Promise<void> {
  const samples: number[] = [];
  let last: { json: ApiContextPreview; bytes: number; ms: number } | undefined;
  for (let i = 0; i < CONFIG.contextIterations; i++) {
    const appended = await postJson(bench.baseUrl, `/api/threads/${chain.lastThreadId}/turns`, {
      role: i % 2 ? "assistant" : "user",
      content: sentence(8, 20),
    });
    if (appended.status !== 201) throw new Error(`context ${chain.label}: append -> ${appended.status}`);
    last = await getJsonSized<ApiContextPreview>(bench.baseUrl, contextUrl(chain, EXACT));
    samples.push(last.ms);
  }
  if (turnsOf(last!.json) !== chain.turns + CONFIG.contextIterations)
    throw new Error(`context ${chain.label}: the appended turns are missing from the preview`);
  bench.record({
    section: "context",
    name: `context ${label}, gpt-4o exact, right after an append (that thread read again)`,
    stats: summarize(samples),
    target: { metric: "p50", maxMs: TARGETS.contextP50 },
    note: describePreview(last!.json, last!.bytes) + ratioNote(summarize(samples).p50),
  });
}

/**
 * What a cold request usually is in practice: turns appended through the API already have o200k
 * counts; the first preview for another model's tokenizer counts the whole chain again.
 */
async function measureOtherTokenizerCold(bench: Bench, chain: Chain, label: string): Promise<void> {
  const claude = await getJsonSized<ApiContextPreview>(bench.baseUrl, contextUrl(chain, "model=claude-sonnet-4-5"));
  const again = await getJsonSized<ApiContextPreview>(bench.baseUrl, contextUrl(chain, "model=claude-sonnet-4-5"));
  bench.record({
    section: "context",
    name: `context ${label}, claude-sonnet-4-5 (claude estimate), COLD`,
    value: claude.ms,
    unit: "ms",
    note: `counted ${await bench.store.storedTokenCounts(chain.threadIds, "claude")} claude turn counts; next request ${fmtMs(again.ms)} ms`,
  });
}
