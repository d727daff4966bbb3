import { describe, expect, it } from "vitest";
import { formatModelSpec, modelSpecSchema, parseModelSpec } from "./model-spec";

describe("parseModelSpec", () => {
  it.each([
    ["openai:gpt-4o-mini", "openai", "gpt-4o-mini"],
    ["anthropic:claude-3-5-haiku-latest", "anthropic", "claude-3-5-haiku-latest"],
    ["google:gemini-2.0-flash-lite", "google", "gemini-2.0-flash-lite"],
    // Only the first colon splits: model ids may hold colons.
    ["openai-compatible:llama3.1:8b", "openai-compatible", "llama3.1:8b"],
    ["  openai:gpt-4o  ", "openai", "gpt-4o"],
  ])("parses %j", (input, provider, model) => {
    expect(parseModelSpec(input)).toEqual({ ok: true, spec: { provider, model } });
  });

  it.each([
    ["foo:bar", 'model: provider must be one of openai, anthropic, google, openai-compatible; got "foo"'],
    ["OpenAI:gpt-4o", 'model: provider must be one of openai, anthropic, google, openai-compatible; got "OpenAI"'],
    [":gpt-4o", 'model: provider must be one of openai, anthropic, google, openai-compatible; got ""'],
    ["openai:", 'model: model name must not be empty (after "openai:")'],
    ["openai:   ", 'model: model name must not be empty (after "openai:")'],
    ["gpt-4o", 'model: must be "<provider>:<model>" (e.g. "openai:gpt-4o-mini"); got "gpt-4o"'],
    ["", 'model: must not be empty; use "<provider>:<model>", e.g. "openai:gpt-4o-mini"'],
    ["openai:gpt 4o", 'model: model name must not contain spaces; got "gpt 4o"'],
    [`openai:${"x".repeat(400)}`, "model: must be at most 300 characters"],
  ])("refuses %j, naming what is wrong", (input, error) => {
    expect(parseModelSpec(input)).toEqual({ ok: false, error });
  });
});

describe("modelSpecSchema", () => {
  it("gives { provider, model } and round-trips through formatModelSpec", () => {
    const spec = modelSpecSchema.parse("openai-compatible:qwen2.5:14b");
    expect(spec).toEqual({ provider: "openai-compatible", model: "qwen2.5:14b" });
    expect(formatModelSpec(spec)).toBe("openai-compatible:qwen2.5:14b");
  });

  it("reports one issue with the message, for a field-level error", () => {
    const result = modelSpecSchema.safeParse("foo:bar");
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'provider must be one of openai, anthropic, google, openai-compatible; got "foo"',
    ]);
  });

  it("refuses a non-string", () => {
    expect(modelSpecSchema.safeParse(42).success).toBe(false);
  });
});
