import { describe, expect, it } from "vitest";
import { attributionBesideRole, attributionText } from "./attribution";

describe("attributionText", () => {
  it("names model, tool and provider as PAL's headers do", () => {
    expect(attributionText({ role: "assistant", modelName: "gpt-5", toolName: "codereview", modelProvider: "openai" })).toBe(
      "gpt-5 using codereview via openai",
    );
  });

  it("falls back to the role and omits what is unknown", () => {
    expect(attributionText({ role: "user", modelName: null, toolName: "analyze", modelProvider: null })).toBe("User using analyze");
    expect(attributionText({ role: "assistant", modelName: null, toolName: null, modelProvider: "google" })).toBe("Assistant via google");
    expect(attributionText({ role: "tool", modelName: null, toolName: null, modelProvider: null })).toBe("Tool");
  });
});

describe("attributionBesideRole", () => {
  it("does not repeat the role label shown beside it", () => {
    expect(attributionBesideRole({ modelName: "gpt-5", toolName: "codereview", modelProvider: "openai" })).toBe(
      "gpt-5 using codereview via openai",
    );
    expect(attributionBesideRole({ modelName: null, toolName: "analyze", modelProvider: null })).toBe("using analyze");
    expect(attributionBesideRole({ modelName: null, toolName: null, modelProvider: "google" })).toBe("via google");
    expect(attributionBesideRole({ modelName: null, toolName: null, modelProvider: null })).toBe("");
  });
});
