/** Unknown /api paths answer the JSON error shape for every method. */
import { describe, expect, it } from "vitest";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { jsonRequest } from "@/lib/testing/api";
import { expectError } from "@/lib/testing/integration";
import * as route from "./route";

describe("unknown /api paths", () => {
  it.each(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const)("answer 404 not_found as JSON to %s", async (method) => {
    const handler = route[method];
    const error = await expectError(await handler(jsonRequest(method, "/api/nothing/here")), 404, "not_found");
    expect(error.message).toBe(`No API endpoint ${method} "/api/nothing/here"`);
  });

  it("names the path with its secrets masked, then cut: not a piece of a token is left", async () => {
    const token = secretSamples(3).find((s) => s.rule === "github-pat")!.value;
    for (const before of ["", "x".repeat(180)]) {
      const text = await (await route.GET(jsonRequest("GET", `/api/${before}/${token}`))).text();
      for (let i = 0; i + 8 <= token.length; i++) expect(text).not.toContain(token.slice(i, i + 8));
    }
  });
});
