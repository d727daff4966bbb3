import { describe, expect, it } from "vitest";
import { toggleFolds, turnToggleStatus } from "./tool-outputs";

describe("toggleFolds", () => {
  it("opens every fold when any is closed", () => {
    const folds = [{ open: true }, { open: false }, { open: false }];
    expect(toggleFolds(folds)).toBe(true);
    expect(folds.map((f) => f.open)).toEqual([true, true, true]);
  });

  it("closes them all when all are open", () => {
    const folds = [{ open: true }, { open: true }];
    expect(toggleFolds(folds)).toBe(false);
    expect(folds.map((f) => f.open)).toEqual([false, false]);
  });

  it("answers null when there is nothing to open", () => {
    expect(toggleFolds([])).toBeNull();
  });
});

describe("turnToggleStatus", () => {
  it("says what happened to which turn", () => {
    expect(turnToggleStatus(4, true, 1)).toBe("Opened the tool output of turn 4.");
    expect(turnToggleStatus(4, false, 3)).toBe("Closed 3 tool outputs of turn 4.");
    expect(turnToggleStatus(9, null, 0)).toBe("Turn 9 has no tool outputs.");
  });
});
