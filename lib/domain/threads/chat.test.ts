import { describe, expect, it } from "vitest";
import { chatMark, isUnanswered, withoutUnansweredMark } from "./chat";

describe("chat marks", () => {
  it("reads an unanswered user turn and an incomplete reply, and nothing else", () => {
    expect(chatMark({ role: "user", modelMetadata: { unanswered: { reason: "HTTP 503", kind: "provider" } } })).toEqual({
      kind: "unanswered",
      reason: "HTTP 503",
    });
    expect(chatMark({ role: "assistant", modelMetadata: { incomplete: { reason: "The reply was cancelled." } } })).toEqual({
      kind: "incomplete",
      reason: "The reply was cancelled.",
    });
    // The key on the other role, a non-object mark, or none at all: no mark.
    expect(chatMark({ role: "assistant", modelMetadata: { unanswered: { reason: "x" } } })).toBeNull();
    expect(chatMark({ role: "user", modelMetadata: { unanswered: "yes" } })).toBeNull();
    expect(chatMark({ role: "user", modelMetadata: null })).toBeNull();
    expect(isUnanswered({ role: "user", modelMetadata: { unanswered: {} } })).toBe(true);
    expect(chatMark({ role: "user", modelMetadata: { unanswered: {} } })).toEqual({ kind: "unanswered", reason: "" });
  });

  it("removes the unanswered mark and keeps the rest", () => {
    expect(withoutUnansweredMark({ unanswered: { reason: "x" }, source: "api" })).toEqual({ source: "api" });
    expect(withoutUnansweredMark({ unanswered: { reason: "x" } })).toBeNull();
    const other = { source: "api" };
    expect(withoutUnansweredMark(other)).toBe(other);
    expect(withoutUnansweredMark(null)).toBeNull();
  });
});
