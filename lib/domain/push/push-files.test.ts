import { describe, expect, it } from "vitest";
import { linesEnd, machineNameOf, pushedPathProblem, pushStep } from "./push-files";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("pushStep", () => {
  it("sends nothing when the server holds the whole file, and what follows its offset when the file grew", () => {
    expect(pushStep(10, { offset: 10, sha256: "a" }, "a")).toEqual({ kind: "unchanged" });
    expect(pushStep(25, { offset: 10, sha256: "a" }, "a")).toEqual({ kind: "append", from: 10 });
  });

  it("sends the file whole when it is new, shrank or was rewritten", () => {
    expect(pushStep(5, undefined, null)).toEqual({ kind: "whole" });
    expect(pushStep(0, undefined, null)).toEqual({ kind: "unchanged" });
    expect(pushStep(5, { offset: 10, sha256: "a" }, null)).toEqual({ kind: "whole" });
    expect(pushStep(25, { offset: 10, sha256: "a" }, "b")).toEqual({ kind: "whole" });
  });
});

describe("linesEnd", () => {
  it("ends a piece after the last complete line within the limit", () => {
    const text = bytes("aaa\nbbb\ncc");
    expect(linesEnd(text, 0, 100)).toBe(8);
    expect(linesEnd(text, 0, 6)).toBe(4);
    expect(linesEnd(text, 4, 100)).toBe(8);
  });

  it("lets one line longer than the limit go alone, and finds none in a line still being written", () => {
    expect(linesEnd(bytes("aaaaaaaa\nb\n"), 0, 3)).toBe(9);
    expect(linesEnd(bytes("abc"), 0, 100)).toBe(-1);
  });
});

describe("names", () => {
  it("refuses paths that leave the home folder or are not relative", () => {
    expect(pushedPathProblem(".claude/projects/p/s.jsonl")).toBeNull();
    for (const bad of ["/etc/passwd", "../x.jsonl", "a/../../x.jsonl", "a//b.jsonl", "a\\b.jsonl", "", "a/./b.jsonl"])
      expect(pushedPathProblem(bad), bad).not.toBeNull();
  });

  it("makes a machine name of any host name", () => {
    expect(machineNameOf("Mia's MacBook Pro.local")).toBe("Mia-s-MacBook-Pro.local");
    expect(machineNameOf("---")).toBe("laptop");
    expect(machineNameOf("x".repeat(80))).toHaveLength(64);
  });
});
