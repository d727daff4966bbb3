import { describe, expect, it } from "vitest";
import { measureTokenizerThroughput } from "./throughput";

// Speed depends on the machine, so nothing here asserts a speed: only that the figures are sane.
describe("measureTokenizerThroughput", () => {
  it("reports the token count and a finite, positive speed", () => {
    const text = "Threadline keeps AI conversations where people can see them. ".repeat(500);
    const result = measureTokenizerThroughput("o200k_base", text);
    expect(result.tokens).toBe(5_501);
    expect(Number.isFinite(result.mbPerSecond)).toBe(true);
    expect(result.mbPerSecond).toBeGreaterThan(0);
  });

  it("works for estimates and PAL's character counts", () => {
    const text = "😀 emoji and 汉字 ".repeat(100);
    expect(measureTokenizerThroughput("chars/4", text).tokens).toBe(Math.floor(Array.from(text).length / 4));
  });

  it("rejects an unknown tokenizer", () => {
    expect(() => measureTokenizerThroughput("nope", "text")).toThrow(/Unknown tokenizer "nope"/);
  });
});
