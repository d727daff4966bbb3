import { describe, expect, it } from "vitest";
import { quoteInput } from "./quote";
import { secretSamples } from "../testing/secret-samples";

const samples = secretSamples(5);
const token = samples.find((s) => s.rule === "github-pat")!.value;
const openai = samples.find((s) => s.rule === "openai-api-key")!.value;

describe("quoteInput", () => {
  it("quotes a value as JSON writes a string", () => {
    expect(quoteInput("abc")).toBe('"abc"');
    expect(quoteInput('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
  });

  it("cuts after `max` characters, with an ellipsis", () => {
    expect(quoteInput("x".repeat(100))).toBe(`"${"x".repeat(100)}"`);
    expect(quoteInput("x".repeat(101))).toBe(`"${"x".repeat(100)}…"`);
    expect(quoteInput("abcdef", 3)).toBe('"abc…"');
  });

  it("masks a secret before it cuts: not one piece of it is left, however short the cut", () => {
    // Cut first (the bug), the first 20 characters of a GitHub token are no longer a token.
    const pieces = (secret: string) => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
    for (const max of [8, 20, 30, 100]) {
      const quoted = quoteInput(`${token}/more`, max);
      for (const piece of pieces(token)) expect(quoted).not.toContain(piece);
    }
    expect(quoteInput(`${token}/more`, 22)).toMatch(/^"\[GitHub token …[0-9a-f]{4}\]\/m…"$/);
    // Longer than the cut (164 characters): masked whole, so what is left fits.
    const quoted = quoteInput(`key ${openai} end`);
    for (const piece of pieces(openai)) expect(quoted).not.toContain(piece);
    expect(quoted).toMatch(/^"key \[OpenAI key …[0-9a-f]{4}\] end"$/);
  });

  it("does not cut a surrogate pair in half", () => {
    expect(quoteInput(`ab${"😀".repeat(3)}`, 3)).toBe('"ab…"');
    expect(quoteInput(`a${"😀".repeat(3)}`, 3)).toBe('"a😀…"');
  });
});
