import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nativeDocumentJsonSchemaText } from "./native-format-schema";

describe("docs/threadline-v1.schema.json", () => {
  it("is the schema generated from the validator (run `npm run docs:schema` after changing it)", () => {
    const committed = readFileSync(path.resolve("docs/threadline-v1.schema.json"), "utf8");
    expect(committed).toBe(nativeDocumentJsonSchemaText());
  });
});
