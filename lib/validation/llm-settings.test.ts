import { describe, expect, it } from "vitest";
import { llmSettingsSchema } from "./llm-settings";

const form = (fields: Record<string, unknown>) =>
  llmSettingsSchema.safeParse({ compactionModel: "", chatModel: "", openaiCompatibleBaseUrl: "", ...fields });

describe("llmSettingsSchema: the default models", () => {
  it("takes a chat model beside the compaction model, trimmed", () => {
    const parsed = form({ chatModel: "  openai-compatible:llama3.1:8b ", compactionModel: "openai:gpt-4o-mini" });
    expect(parsed.success && parsed.data).toMatchObject({
      chatModel: "openai-compatible:llama3.1:8b",
      compactionModel: "openai:gpt-4o-mini",
    });
  });

  it("a blank chat model removes the saved one (null), as does leaving it out", () => {
    expect(form({ chatModel: "   " }).data?.chatModel).toBeNull();
    expect(llmSettingsSchema.safeParse({}).data?.chatModel).toBeNull();
  });

  it("refuses an invalid chat model, naming the field and what is wrong", () => {
    const parsed = form({ chatModel: "gpt-4o" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["chatModel", 'must be "<provider>:<model>" (e.g. "openai:gpt-4o-mini"); got "gpt-4o"'],
    ]);
    expect(form({ chatModel: "cohere:command-r" }).error?.issues[0]?.message).toBe(
      'provider must be one of openai, anthropic, google, openai-compatible; got "cohere"',
    );
  });
});
