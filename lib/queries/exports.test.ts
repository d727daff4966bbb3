import { describe, expect, it } from "vitest";
import { exportUrl } from "./exports";

const base = { redact: false, subagents: false, chain: false, includeExpired: false };

describe("exportUrl", () => {
  it("names only what differs from the API's defaults: json lossless, html and md redacted", () => {
    expect(exportUrl("t", { ...base, format: "json" })).toBe("/api/threads/t/export");
    expect(exportUrl("t", { ...base, format: "json", redact: true, chain: true, subagents: true })).toBe(
      "/api/threads/t/export?chain=1&redact=1",
    );
    expect(exportUrl("t", { ...base, format: "html", redact: true })).toBe("/api/threads/t/export?format=html");
    expect(exportUrl("t", { ...base, format: "md" })).toBe("/api/threads/t/export?format=md&redact=0");
    expect(exportUrl("t", { format: "html", redact: true, subagents: true, chain: true, includeExpired: true })).toBe(
      "/api/threads/t/export?format=html&chain=1&subagents=1&includeExpired=1",
    );
  });
});
