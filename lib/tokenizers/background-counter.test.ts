import { describe, expect, it, vi } from "vitest";
import { countingStats, countTexts, IDLE_MS, INLINE_CHARS, startBackgroundCounter } from "./background-counter";
import { listTokenizers, getTokenizer } from "./registry";

const TEXTS = [
  "",
  "plain English text about refreshing a session token",
  "function add(a: number, b: number) {\n  return a + b;\n}\n".repeat(50),
  "<|endoftext|> quoted in a transcript is just text <|im_start|>",
  "日本語のテキストと emoji 🎉🚀 and accents: café naïve",
  "a long tool output line ".repeat(4_000),
  // A run too long to tokenize whole: counted in pieces, and said to be.
  `before ${"語".repeat(3_000)} after`,
];

describe("background token counter", () => {
  it.each(["o200k_base", "cl100k_base", "llama3", "claude"])("counts %s on a worker exactly as the registry does", async (id) => {
    const counter = startBackgroundCounter(id);
    try {
      const [first, second] = await Promise.all([counter.count(TEXTS), counter.count(TEXTS.slice(1, 3))]);
      const expected = TEXTS.map((text) => getTokenizer(id).measure(text));
      expect(first).toEqual(expected);
      expect(second).toEqual(expected.slice(1, 3));
      expect(expected[1]!.tokens).toBeGreaterThan(5);
      expect(expected.map((counted) => counted.estimated)).toEqual([false, false, false, false, false, false, true]);
    } finally {
      await counter.close();
    }
  });

  it("counts PAL's estimates on this thread, with the same results", async () => {
    const counter = startBackgroundCounter("chars/4");
    expect(await counter.count(TEXTS.slice(0, 3))).toEqual(TEXTS.slice(0, 3).map((text) => getTokenizer("chars/4").measure(text)));
    await counter.close();
  });

  it("refuses work after it is closed, rather than hang", async () => {
    const counter = startBackgroundCounter("o200k_base");
    await counter.count(["warm"]);
    await counter.close();
    await expect(counter.count(["late"])).rejects.toThrow(/closed/);
  });

  it("sends small batches to the worker together, each answered with its own counts", async () => {
    const counter = startBackgroundCounter("o200k_base");
    await counter.count(["warm"]);
    const before = countingStats.importMessages;
    const batches = Array.from({ length: 20 }, (_, i) => [`file ${i}: ${TEXTS[1]}`, TEXTS[2]!, TEXTS[4]!]);
    const counts = await Promise.all(batches.map((texts) => counter.count(texts)));
    expect(counts).toEqual(batches.map((texts) => texts.map((text) => getTokenizer("o200k_base").measure(text))));
    expect(countingStats.importMessages - before).toBe(1);
    // A batch as long as a big import's goes at once, as does one somebody waits for.
    const long = counter.count([TEXTS[5]!, TEXTS[5]!]);
    expect(countingStats.importMessages - before).toBe(2);
    const short = counter.count([TEXTS[1]!]);
    counter.send();
    expect(countingStats.importMessages - before).toBe(3);
    expect((await long)[0]).toEqual(getTokenizer("o200k_base").measure(TEXTS[5]!));
    expect(await short).toEqual([getTokenizer("o200k_base").measure(TEXTS[1]!)]);
    await counter.close();
  });

  it("keeps its worker for the next import: no second start-up and vocabulary load", async () => {
    const first = startBackgroundCounter("o200k_base");
    await first.count(["load the vocabulary"]);
    await first.close();
    const started = countingStats.workersStarted;
    const second = startBackgroundCounter("cl100k_base");
    expect(await second.count(["hello world"])).toEqual([{ tokens: 2, estimated: false }]);
    await second.close();
    expect(countingStats.workersStarted).toBe(started);
  });

  it("ends its worker after IDLE_MS without work (giving its vocabulary's memory back), and starts another for the next count", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const counter = startBackgroundCounter("o200k_base");
      const count = (text: string) => {
        const counted = counter.count([text]);
        counter.send();
        return counted;
      };
      await count("warm");
      const started = countingStats.workersStarted;
      vi.advanceTimersByTime(IDLE_MS - 1_000);
      expect(await count("hello world")).toEqual([{ tokens: 2, estimated: false }]);
      expect(countingStats.workersStarted).toBe(started);
      vi.advanceTimersByTime(IDLE_MS);
      expect(await count("hello world")).toEqual([{ tokens: 2, estimated: false }]);
      expect(countingStats.workersStarted).toBe(started + 1);
      await counter.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("countTexts", () => {
  it("counts a long batch on the shared worker and a short one in place, alike", async () => {
    const long = TEXTS.slice(5);
    expect(long.join("").length).toBeGreaterThan(INLINE_CHARS);
    for (const counter of listTokenizers()) {
      const before = { ...countingStats };
      const counts = await countTexts(counter.id, long);
      expect(counts).toEqual(long.map((text) => counter.measure(text)));
      // PAL's character estimates never need the worker.
      expect(countingStats.offThread - before.offThread).toBe(counter.id.startsWith("chars/") ? 0 : 1);
    }
    // In place once this thread has the vocabulary (the registry's counts above loaded it).
    const before = { ...countingStats };
    expect(await countTexts("o200k_base", ["hello world"])).toEqual([{ tokens: 2, estimated: false }]);
    expect(countingStats).toEqual({ ...before, inline: before.inline + 1 });
  });

  it("answers a request while the import worker has a long queue of import counts", async () => {
    const counter = startBackgroundCounter("o200k_base");
    await counter.count(["warm"]);
    let importsDone = false;
    const imports = Promise.all(Array.from({ length: 40 }, (_, i) => counter.count([`${i} ${TEXTS[5]!}`, TEXTS[2]!]))).then(() => {
      importsDone = true;
    });
    counter.send();
    expect(await countTexts("o200k_base", [`a request's ${TEXTS[2]!}`])).toEqual([
      getTokenizer("o200k_base").measure(`a request's ${TEXTS[2]!}`),
    ]);
    expect(importsDone).toBe(false);
    await imports;
    await counter.close();
  });

  it("rejects an unknown tokenizer", async () => {
    await expect(countTexts("sentencepiece", ["x"])).rejects.toThrow(/Unknown tokenizer "sentencepiece"/);
  });
});
