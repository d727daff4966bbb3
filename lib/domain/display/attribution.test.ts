import { describe, expect, it } from "vitest";
import { attributionBesideRole } from "./attribution";

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
