import { describe, expect, it } from "vitest";
import { customModelSchema } from "./settings";

const model = { name: "my-finetune-7b", contextWindow: "32768", tokenizer: "o200k_base" };

describe("customModelSchema", () => {
  it("takes a custom model's prices (USD per million tokens) from form text, both or neither", () => {
    expect(customModelSchema.parse({ ...model, inputPricePerMTok: "0.5", outputPricePerMTok: "1.5" })).toMatchObject({
      inputPricePerMTok: 0.5,
      outputPricePerMTok: 1.5,
    });
    expect(customModelSchema.parse(model)).not.toHaveProperty("inputPricePerMTok");
    const one = customModelSchema.safeParse({ ...model, inputPricePerMTok: "0.5" });
    expect(one.success).toBe(false);
    expect(one.error?.issues[0]).toMatchObject({ path: ["outputPricePerMTok"], message: "give both prices or neither" });
    expect(customModelSchema.safeParse({ ...model, inputPricePerMTok: "-1", outputPricePerMTok: "1" }).success).toBe(false);
  });
});
