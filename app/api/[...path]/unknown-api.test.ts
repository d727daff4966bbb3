/** Unknown /api paths answer the JSON error shape for every method. */
import { describe, expect, it } from "vitest";
import { jsonRequest } from "@/lib/testing/api";
import { expectError } from "@/lib/testing/integration";
import * as route from "./route";

describe("unknown /api paths", () => {
  it.each(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const)("answer 404 not_found as JSON to %s", async (method) => {
    const handler = route[method];
    const error = await expectError(await handler(jsonRequest(method, "/api/nothing/here")), 404, "not_found");
    expect(error.message).toBe(`No API endpoint ${method} /api/nothing/here`);
  });
});
