import { describe, expect, it } from "vitest";
import { nativeDocumentSchema, parentsFirst } from "./native-format";
import { issuesOf } from "../parse";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const turn = (n: number, index?: number) => ({
  id: id(100 + n),
  ...(index === undefined ? {} : { index }),
  role: "user",
  content: `turn ${n}`,
  timestamp: "2026-01-01T00:00:00.000Z",
});
const thread = (n: number, turns: unknown[] = []) => ({
  id: id(n),
  toolName: "chat",
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUpdatedAt: "2026-01-01T00:00:00.000Z",
  turns,
});

describe("threadline/v1 documents", () => {
  it("fills optional fields with their defaults", () => {
    const doc = nativeDocumentSchema.parse({ format: "threadline/v1", threads: [thread(1, [turn(1)])] });
    expect(doc.threads[0]).toMatchObject({ parentThreadId: null, title: null, source: "api", initialContext: {}, expiresAt: null });
    expect(doc.threads[0]?.turns[0]).toMatchObject({ files: [], images: [], toolName: null, parts: null });
  });

  it("names the failing field of a bad document", () => {
    const bad = {
      format: "threadline/v1",
      threads: [thread(1, [turn(1, 0), { ...turn(2, 5), role: "robot" }]), { ...thread(2), createdAt: "yesterday" }],
    };
    const parsed = nativeDocumentSchema.safeParse(bad);
    expect(parsed.success).toBe(false);
    const fields = parsed.success ? [] : issuesOf(parsed.error).map((i) => i.field);
    expect(fields).toContain("threads[0].turns[1].role");
    expect(fields).toContain("threads[1].createdAt");
  });

  it("requires contiguous 0-based turn indexes and unique ids", () => {
    const parsed = nativeDocumentSchema.safeParse({ format: "threadline/v1", threads: [thread(1, [turn(1, 0), turn(2, 2)]), thread(1)] });
    const issues = parsed.success ? [] : issuesOf(parsed.error);
    expect(issues).toContainEqual({ field: "threads[0].turns[1].index", message: "must be 1: turns are 0-based and contiguous" });
    expect(issues).toContainEqual({ field: "threads[1].id", message: "appears twice in the document" });
  });

  it("rejects unknown formats and unknown fields", () => {
    expect(nativeDocumentSchema.safeParse({ format: "threadline/v2", threads: [thread(1)] }).success).toBe(false);
    expect(nativeDocumentSchema.safeParse({ format: "threadline/v1", threads: [{ ...thread(1), extra: 1 }] }).success).toBe(false);
  });

  it("orders parents before children", () => {
    const order = parentsFirst([
      { id: "c", parentThreadId: "b" },
      { id: "b", parentThreadId: "a" },
      { id: "x", parentThreadId: "outside" },
      { id: "a", parentThreadId: null },
    ]).map((t) => t.id);
    expect(order).toEqual(["a", "b", "c", "x"]);
  });
});
