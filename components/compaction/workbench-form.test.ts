import { describe, expect, it } from "vitest";
import type { CompactionJobRecord, CompactionPreview } from "@/lib/queries/compactions";
import { describeKept, formFromJob, requestOf, type Form } from "./workbench-form";

const FORM: Form = {
  strategy: "window",
  summarizer: "extractive",
  llmModel: "",
  targetModel: "gpt-4o",
  instructions: "  ",
  window: { trigger: "turns", maxTurns: "40", maxTokens: "" },
  range: { direction: "up-to", at: 3 },
  trim: { maxChars: "2000" },
};

describe("requestOf", () => {
  it("sends the chosen strategy's options only, and a target model only once it is a known one", () => {
    expect(requestOf(FORM, ["gpt-4o"])).toEqual({
      strategy: "window",
      summarizer: "extractive",
      targetModel: "gpt-4o",
      options: { trigger: "turns", maxTurns: 40 },
    });
    expect(requestOf({ ...FORM, targetModel: "gpt-4" }, ["gpt-4o"])).not.toHaveProperty("targetModel");
    expect(requestOf({ ...FORM, window: { ...FORM.window, trigger: "tokens", maxTokens: "" } }, []).options).toEqual({
      trigger: "tokens",
      maxTokens: 0,
    });
    expect(requestOf({ ...FORM, strategy: "range" }, []).options).toEqual({ direction: "up-to", at: 3 });
    expect(requestOf({ ...FORM, strategy: "trim-tool-output" }, []).options).toEqual({ maxChars: 2000 });
    expect(requestOf({ ...FORM, strategy: "full" }, []).options).toEqual({});
  });

  it("names the LLM's model and the instructions only when they are given", () => {
    const llm = requestOf({ ...FORM, summarizer: "llm", llmModel: " openai:gpt-4o-mini ", instructions: " Keep the file names. " }, []);
    expect(llm).toMatchObject({ summarizer: "llm", model: "openai:gpt-4o-mini", instructions: "Keep the file names." });
    expect(requestOf({ ...FORM, summarizer: "marker", llmModel: "openai:gpt-4o-mini" }, [])).not.toHaveProperty("model");
  });
});

describe("formFromJob", () => {
  it("restores the form a background job was started with", () => {
    const job = {
      request: {
        strategy: "window",
        summarizer: "llm",
        model: "anthropic:claude-haiku",
        instructions: "Short.",
        options: { trigger: "tokens", maxTokens: 5000 },
      },
    } as unknown as CompactionJobRecord;
    expect(formFromJob(job, FORM)).toEqual({
      ...FORM,
      summarizer: "llm",
      llmModel: "anthropic:claude-haiku",
      instructions: "Short.",
      window: { trigger: "tokens", maxTurns: "40", maxTokens: "5000" },
    });
  });
});

describe("describeKept", () => {
  const preview = (plan: Partial<CompactionPreview["plan"]>) =>
    ({ plan: { replaced: [], trimmed: [], keptBefore: [], keptAfter: [], ...plan } }) as unknown as CompactionPreview;

  it("names the kept ranges around the summary", () => {
    expect(describeKept(preview({ replaced: [2, 3], keptBefore: [0, 1], keptAfter: [4] }), 5, new Set([2, 3]))).toBe(
      "#1-#2 before the summary, #5 after it",
    );
    expect(describeKept(preview({ replaced: [0, 1] }), 2, new Set([0, 1]))).toBe("nothing: all 2 turns become the summary");
  });

  it("says every turn stays when only tool outputs are shortened", () => {
    expect(describeKept(preview({ trimmed: [{}] as never }), 4, new Set())).toBe("all 4 turns, 1 tool output shortened");
  });
});
