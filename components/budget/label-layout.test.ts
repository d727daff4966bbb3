import { describe, expect, it } from "vitest";
import { spreadLabels } from "./label-layout";

describe("spreadLabels", () => {
  it("leaves labels that do not collide where they want to be", () => {
    expect(spreadLabels([10, 100, 50], 12, 0, 200)).toEqual([10, 100, 50]);
  });

  it("moves colliding labels apart by at least the gap, keeping their order (a 400k window's thresholds)", () => {
    // Claude Code 367k, Codex 360k, OpenCode 380k, Pi 383,616 on a 220 px chart of 400k: y = 220 - v/400k * 220.
    const y = (v: number) => 220 - (v / 400_000) * 220;
    const targets = [367_000, 360_000, 380_000, 383_616].map(y);
    const placed = spreadLabels(targets, 12, 6, 220);
    const byTarget = targets.map((t, i) => [t, placed[i]!] as const).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < byTarget.length; i++) expect(byTarget[i]![1] - byTarget[i - 1]![1]).toBeGreaterThanOrEqual(12 - 1e-9);
    for (const p of placed) expect(p).toBeGreaterThanOrEqual(6);
    // Each stays near its line: no further than the group's total spread.
    for (let i = 0; i < targets.length; i++) expect(Math.abs(placed[i]! - targets[i]!)).toBeLessThanOrEqual(12 * targets.length);
  });

  it("keeps labels inside the bounds, pushing a pile at the bottom upwards", () => {
    const placed = spreadLabels([198, 199, 200], 10, 0, 200);
    expect(placed).toEqual([180, 190, 200]);
  });

  it("pushes a pile at the top downwards", () => {
    expect(spreadLabels([0, 1, 2], 10, 5, 200)).toEqual([5, 15, 25]);
  });
});
