// Pathological turns: 10 MB runs counted by every engine, then posted while the list is read.
import { performance } from "node:perf_hooks";
import { makeRng } from "../../../lib/testing/rng";
import { measure, summarize } from "../measure";
import { Bench, fmtMs } from "../section";
import { tokenizerCorpus } from "./tokenizers";
import { ApiThread, getBody, postJson } from "../server";

/** 10 MB (UTF-8) of one kind of character, deterministic: each is a single run no tokenizer can pre-split. */
function pathologicalTexts(): Record<string, string> {
  const megabytes = 10_000_000;
  const next = makeRng(15);
  const cjk: string[] = [];
  for (let bytes = 0; bytes < megabytes; bytes += 3) cjk.push(String.fromCharCode(0x4e00 + Math.floor(next() * 20_000)));
  const emoji = ["😀", "🎉", "🚀", "❤️", "👍🏽", "🔥", "✨", "🙏", "🧑‍💻"];
  const pictures: string[] = [];
  for (let bytes = 0; bytes < megabytes;) {
    const one = emoji[Math.floor(next() * emoji.length)]!;
    pictures.push(one);
    bytes += Buffer.byteLength(one);
  }
  return {
    "one character": "A".repeat(megabytes),
    "CJK without punctuation": cjk.join(""),
    emoji: pictures.join(""),
    spaces: " ".repeat(megabytes),
  };
}

/**
 * Pathological turns (issue 15): each 10 MB text counted by every engine in this process (seconds;
 * linear-count.mjs cuts the single huge pre-token into pieces), the cost of counting in place
 * below countTexts' INLINE_CHARS, and then against the server: the three 10 MB turns POSTed to
 * /api/threads/:id/turns one after another while GET /api/threads?limit=25 is sent again and
 * again, its latency recorded (counting runs on the shared worker, not the event loop).
 */
export async function sectionLinearCount(bench: Bench): Promise<void> {
  const { engine, ENGINE_IDS } = await import("../../../lib/tokenizers/linear-count.mjs");
  const texts = pathologicalTexts();
  for (const id of ENGINE_IDS) {
    const count = engine(id);
    count("Load the vocabulary.");
    for (const [kind, text] of Object.entries(texts)) {
      const started = performance.now();
      const counted = count(text);
      const seconds = (performance.now() - started) / 1000;
      bench.record({
        section: "linear-count",
        name: `${id}: 10 MB of ${kind} (s)`,
        value: seconds,
        unit: "s",
        target: id === "o200k_base" && kind !== "spaces" ? { metric: "ceiling", max: 2 } : undefined,
        note: `${counted.tokens} tokens${counted.estimated ? ", estimated (counted in pieces)" : ""}`,
      });
    }
  }

  const { INLINE_CHARS } = await import("../../../lib/tokenizers/background-counter");
  const ordinary = tokenizerCorpus(200_000).pieces.join("\n");
  const o200k = engine("o200k_base");
  for (const length of [1_024, INLINE_CHARS]) {
    const samples: string[] = [];
    for (let i = 0; i < 200; i++) {
      const start = Math.floor((i * 7_919) % Math.max(1, ordinary.length - length));
      samples.push(ordinary.slice(start, start + length));
    }
    const timed = await measure(`inline ${length}`, async (i) => o200k(samples[Math.max(0, i)]!), samples.length, { warmup: 5 });
    bench.record({
      section: "linear-count",
      name: `o200k in place, ${length} characters of ordinary text`,
      stats: timed,
      note: "countTexts counts up to INLINE_CHARS in place",
    });
  }

  const created = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", {
    toolName: "bench",
    title: "bench pathological turns",
  });
  if (created.status !== 201) throw new Error(`POST /api/threads -> ${created.status}`);
  const threadId = created.json.thread.id;
  const idle = await measure("GET while idle", () => getBody(bench.baseUrl, "/api/threads?limit=25"), 50);
  bench.record({ section: "linear-count", name: "GET /api/threads?limit=25, idle (for comparison)", stats: idle });

  let posting = true;
  const latencies: number[] = [];
  const getter = (async () => {
    while (posting) {
      const started = performance.now();
      await getBody(bench.baseUrl, "/api/threads?limit=25");
      latencies.push(performance.now() - started);
    }
  })();
  try {
    for (const kind of ["one character", "CJK without punctuation", "emoji"]) {
      const started = performance.now();
      const answer = await postJson<{ turn: { tokens: number; tokensEstimated?: boolean } }>(
        bench.baseUrl,
        `/api/threads/${threadId}/turns`,
        { role: "tool", content: texts[kind] },
      );
      const seconds = (performance.now() - started) / 1000;
      if (answer.status !== 201) throw new Error(`POST /api/threads/:id/turns (${kind}) -> ${answer.status}`);
      bench.record({
        section: "linear-count",
        name: `POST /api/threads/:id/turns, 10 MB of ${kind} (s)`,
        value: seconds,
        unit: "s",
        note: `${answer.json.turn.tokens} tokens${answer.json.turn.tokensEstimated ? ", estimated" : ""}; stored with its FTS index entry`,
      });
    }
  } finally {
    posting = false;
    await getter;
  }
  bench.record({
    section: "linear-count",
    name: "GET /api/threads?limit=25 while those turns are posted",
    stats: summarize(latencies),
    target: { metric: "p95", maxMs: 200 },
    note: `max ${fmtMs(Math.max(...latencies))} ms over ${latencies.length} requests`,
  });
}
