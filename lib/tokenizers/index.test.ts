import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { CALIBRATIONS } from "./calibration";
import { engine } from "./engines";
import { DEFAULT_TOKENIZER_ID, getTokenizer, hasTokenizer, listTokenizers } from "./index";

const SAMPLES = {
  hello: "hello world",
  fox: "The quick brown fox jumps over the lazy dog.",
  code: "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
  unicode: "你好，世界！😀 naïve café",
  special: "a <|endoftext|> b <|im_start|>",
  json: '{"role":"assistant","content":"Done — 3 files changed."}',
};

// Computed once with the real packages (and cross-checked against js-tiktoken for OpenAI).
const EXACT: Record<string, Record<keyof typeof SAMPLES, number>> = {
  o200k_base: { hello: 2, fox: 10, code: 20, unicode: 8, special: 15, json: 15 },
  cl100k_base: { hello: 2, fox: 10, code: 20, unicode: 12, special: 13, json: 15 },
  llama3: { hello: 2, fox: 10, code: 20, unicode: 10, special: 13, json: 15 },
};

describe("token counter registry", () => {
  it("loads a tokenizer's package only when it first counts", () => {
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).some((path) => path.includes("llama3-tokenizer-js"));
    const llama = getTokenizer("llama3");
    expect(loaded()).toBe(false);
    expect(llama.count("hello world")).toBe(2);
    expect(loaded()).toBe(true);
  });

  it.each(Object.entries(EXACT))("%s counts known strings exactly", (id, expected) => {
    const counter = getTokenizer(id);
    expect(counter.exact).toBe(true);
    for (const [name, text] of Object.entries(SAMPLES)) {
      expect({ name, tokens: counter.count(text) }).toEqual({ name, tokens: expected[name as keyof typeof SAMPLES] });
    }
  });

  it("counts long text exactly", () => {
    const text = "Threadline keeps AI conversations where people can see them. ".repeat(2000);
    expect(getTokenizer("o200k_base").count(text)).toBe(22_001);
    expect(getTokenizer("cl100k_base").count(text)).toBe(22_001);
  });

  it("counts special-token strings as plain text instead of throwing", () => {
    for (const counter of listTokenizers()) {
      expect(counter.count("<|endoftext|><|im_start|>user<|im_end|><EOT>")).toBeGreaterThan(0);
    }
  });

  it("counts the empty string as zero tokens everywhere", () => {
    for (const counter of listTokenizers()) expect(counter.count("")).toBe(0);
  });

  it.each(Object.entries(CALIBRATIONS))("%s is its base tokenizer times its factor, rounded", (id, calibration) => {
    const counter = getTokenizer(id);
    expect(counter.exact).toBe(false);
    expect(counter.description).toContain(calibration.source);
    const base = engine(calibration.base);
    for (const text of Object.values(SAMPLES)) {
      expect(counter.count(text)).toBe(Math.round(base(text).tokens * calibration.factor));
    }
  });

  it("gives the Claude estimates fixed values", () => {
    expect(engine("claude-legacy")(SAMPLES.code).tokens).toBe(23); // the legacy Claude vocabulary itself
    expect(getTokenizer("claude").count(SAMPLES.code)).toBe(25); // 23 x 1.10 = 25.3
    expect(getTokenizer("claude-4.7").count(SAMPLES.code)).toBe(34); // 23 x 1.4575 = 33.5
    expect(getTokenizer("claude").count(SAMPLES.fox)).toBe(11);
  });

  it("implements PAL's estimates on code points, rounded down", () => {
    expect(getTokenizer("chars/3").count("😀".repeat(7))).toBe(2); // len 7 in Python, 14 UTF-16 units
    expect(getTokenizer("chars/4").count("😀".repeat(7))).toBe(1);
    expect(getTokenizer("chars/4").count(SAMPLES.hello)).toBe(2);
    expect(getTokenizer("chars/3").count(SAMPLES.hello)).toBe(3);
  });

  it("lists every counter once, each labelled and described, exact ones first", () => {
    const counters = listTokenizers();
    const ids = counters.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      "o200k_base",
      "cl100k_base",
      "llama3",
      "claude",
      "claude-4.7",
      "gemini",
      "qwen",
      "deepseek",
      "mistral",
      "grok",
      "chars/3",
      "chars/4",
    ]);
    expect(counters.filter((c) => c.exact).map((c) => c.id)).toEqual(["o200k_base", "cl100k_base", "llama3"]);
    for (const counter of counters) {
      expect(counter.label).not.toBe("");
      expect(counter.description.length).toBeGreaterThan(20);
      expect(getTokenizer(counter.id)).toBe(counter);
    }
  });

  it("defaults to o200k_base", () => {
    expect(DEFAULT_TOKENIZER_ID).toBe("o200k_base");
    expect(getTokenizer(DEFAULT_TOKENIZER_ID).exact).toBe(true);
  });

  it("rejects an unknown id with an error listing the known ones", () => {
    expect(hasTokenizer("sentencepiece")).toBe(false);
    expect(() => getTokenizer("sentencepiece")).toThrowError(
      /Unknown tokenizer "sentencepiece"\. Known tokenizers: o200k_base, cl100k_base, llama3, .*chars\/4\./,
    );
  });
});
