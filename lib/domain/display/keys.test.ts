import { describe, expect, it } from "vitest";
import { keyAction, stepSelection, type KeyBinding } from "./keys";

const KEYS: KeyBinding<"down" | "open" | "help">[] = [
  { keys: ["j", "ArrowDown"], action: "down", label: "Next" },
  { keys: ["Enter"], action: "open", label: "Open" },
  { keys: ["?"], action: "help", label: "Help" },
];

describe("keyAction", () => {
  it("answers the action bound to a key, any of its keys, and null for others (keys are case-sensitive)", () => {
    expect(keyAction(KEYS, { key: "j" })).toBe("down");
    expect(keyAction(KEYS, { key: "ArrowDown" })).toBe("down");
    expect(keyAction(KEYS, { key: "Enter" })).toBe("open");
    expect(keyAction(KEYS, { key: "?" })).toBe("help");
    expect(keyAction(KEYS, { key: "J" })).toBeNull();
    expect(keyAction(KEYS, { key: "x" })).toBeNull();
  });

  it("leaves fields their keys, and keys with Ctrl, Cmd or Alt to the browser", () => {
    expect(keyAction(KEYS, { key: "j", target: { tagName: "input" } })).toBeNull();
    expect(keyAction(KEYS, { key: "Enter", target: { tagName: "TEXTAREA" } })).toBeNull();
    expect(keyAction(KEYS, { key: "j", target: { tagName: "DIV", isContentEditable: true } })).toBeNull();
    expect(keyAction(KEYS, { key: "j", target: { tagName: "A" } })).toBe("down");
    expect(keyAction(KEYS, { key: "j", ctrlKey: true })).toBeNull();
    expect(keyAction(KEYS, { key: "j", metaKey: true })).toBeNull();
    expect(keyAction(KEYS, { key: "j", altKey: true })).toBeNull();
  });
});

describe("stepSelection", () => {
  const ids = ["a", "b", "c"];

  it("starts at the first going down and the last going up", () => {
    expect(stepSelection(ids, null, 1)).toBe("a");
    expect(stepSelection(ids, null, -1)).toBe("c");
  });

  it("moves one at a time and stops at the ends", () => {
    expect(stepSelection(ids, "a", 1)).toBe("b");
    expect(stepSelection(ids, "b", -1)).toBe("a");
    expect(stepSelection(ids, "c", 1)).toBe("c");
    expect(stepSelection(ids, "a", -1)).toBe("a");
  });

  it("starts again from an end when the selected item left the list, and selects nothing in an empty one", () => {
    expect(stepSelection(ids, "gone", 1)).toBe("a");
    expect(stepSelection([], "a", 1)).toBeNull();
  });
});
