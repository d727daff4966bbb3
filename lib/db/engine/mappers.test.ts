import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { partsFromStored, storedParts } from "./mappers";

describe("stored parts", () => {
  it("keeps a tool result whose output is the turn's content once, and reads it back with its keys in order", () => {
    const content = "line 1\nline 2 with a long tool output";
    const parts: TurnPart[] = [{ type: "tool_result", toolCallId: "call_1", content, isError: false, extra: { kept: true } }];
    const stored = storedParts(parts, content)!;
    expect(stored).not.toContain("line 2");
    expect(JSON.parse(stored)).toEqual({
      contentAt: [0, "content"],
      parts: [{ type: "tool_result", toolCallId: "call_1", content: null, isError: false, extra: { kept: true } }],
    });
    const read = partsFromStored(stored, content);
    expect(JSON.stringify(read)).toBe(JSON.stringify(parts));
  });

  it("shares a text part that is the whole content, not thinking or a text that differs", () => {
    const content = "The answer.";
    const parts: TurnPart[] = [
      { type: "thinking", text: "The answer." },
      { type: "text", text: "The answer." },
      { type: "tool_call", id: "c", name: "Read", arguments: { path: "a.ts" } },
    ];
    const stored = storedParts(parts, content)!;
    expect(JSON.parse(stored).contentAt).toEqual([1, "text"]);
    expect(JSON.stringify(partsFromStored(stored, content))).toBe(JSON.stringify(parts));
  });

  it("stores parts as they are when no part is the content, and reads plain arrays (rows written before sharing)", () => {
    const parts: TurnPart[] = [
      { type: "text", text: "part of it" },
      { type: "image", path: "a.png" },
    ];
    const stored = storedParts(parts, "part of it, and more")!;
    expect(stored).toBe(JSON.stringify(parts));
    expect(partsFromStored(stored, "part of it, and more")).toEqual(parts);
    expect(storedParts([{ type: "text", text: "" }], "")).toBe('[{"type":"text","text":""}]');
    expect(storedParts(null, "x")).toBeNull();
    expect(partsFromStored(null, "x")).toBeNull();
  });

  it("never shares a tool result whose content is structured", () => {
    const parts: TurnPart[] = [{ type: "tool_result", toolCallId: "c", content: [{ type: "text", text: "x" }] }];
    expect(storedParts(parts, "x")).toBe(JSON.stringify(parts));
  });
});
