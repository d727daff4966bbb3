import { describe, expect, it } from "vitest";
import { startBackgroundCounter } from "./background-counter";
import { getTokenizer } from "./registry";

const TEXTS = [
  "",
  "plain English text about refreshing a session token",
  "function add(a: number, b: number) {\n  return a + b;\n}\n".repeat(50),
  "<|endoftext|> quoted in a transcript is just text <|im_start|>",
  "日本語のテキストと emoji 🎉🚀 and accents: café naïve",
  "a long tool output line ".repeat(4_000),
];

describe("background token counter", () => {
  it.each(["o200k_base", "cl100k_base"])("counts %s on a worker exactly as the registry does", async (id) => {
    const counter = startBackgroundCounter(id);
    try {
      const [first, second] = await Promise.all([counter.count(TEXTS), counter.count(TEXTS.slice(1, 3))]);
      const expected = TEXTS.map((text) => getTokenizer(id).count(text));
      expect(first).toEqual(expected);
      expect(second).toEqual(expected.slice(1, 3));
      expect(expected[1]).toBeGreaterThan(5);
    } finally {
      await counter.close();
    }
  });

  it("counts other tokenizers on this thread, with the same results", async () => {
    const counter = startBackgroundCounter("llama3");
    expect(await counter.count(TEXTS.slice(0, 3))).toEqual(TEXTS.slice(0, 3).map((text) => getTokenizer("llama3").count(text)));
    await counter.close();
  });

  it("refuses work after it is closed, rather than hang", async () => {
    const counter = startBackgroundCounter("o200k_base");
    await counter.count(["warm"]);
    await counter.close();
    await expect(counter.count(["late"])).rejects.toThrow(/worker/);
  });
});
