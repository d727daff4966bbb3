import { describe, expect, it } from "vitest";
import { blockRow, groupIntoBlocks, resolveTokenLimit, withTokenLimit, type BlockEntry } from "./usage-blocks";
import { emptyFigures } from "./usage-report";

const at = (iso: string) => Date.parse(iso);

/** One response at an instant: 1,000 input and 200 output tokens, $0.01. */
function response(iso: string, model = "claude-opus-4-6"): BlockEntry {
  return { at: at(iso), model, figures: { ...emptyFigures(), inputTokens: 1_000, outputTokens: 200, costUsd: 0.01, responses: 1 } };
}

const starts = (entries: BlockEntry[]) => groupIntoBlocks(entries).map((block) => new Date(block.start).toISOString());

/** A block's row with its edges taken from its own entries. */
function rowOf(entries: BlockEntry[], now: string) {
  const [block] = groupIntoBlocks(entries);
  const times = block!.entries.map((entry) => entry.at);
  return blockRow(block!, { firstResponseAt: Math.min(...times), lastResponseAt: Math.max(...times), threads: 1 }, new Date(now));
}

describe("groupIntoBlocks", () => {
  it("starts a block at its first response's hour, floored, and ends it 5 hours later", () => {
    const [block] = groupIntoBlocks([response("2026-02-12T14:51:52Z"), response("2026-02-12T14:10:00Z")]);
    expect(new Date(block!.start).toISOString()).toBe("2026-02-12T14:00:00.000Z");
    expect(new Date(block!.end).toISOString()).toBe("2026-02-12T19:00:00.000Z");
    expect(block!.entries.map((entry) => new Date(entry.at).toISOString())).toEqual([
      "2026-02-12T14:10:00.000Z",
      "2026-02-12T14:51:52.000Z",
    ]);
  });

  it("keeps a response just before the block's end in it, and starts the next at exactly 5 hours", () => {
    expect(starts([response("2026-02-12T14:30:00Z"), response("2026-02-12T18:59:59.999Z")])).toEqual(["2026-02-12T14:00:00.000Z"]);
    // Hour-exact sums cannot tell 19:00:00.000 from 19:00:00.001: the next block (ccusage keeps the very instant).
    expect(starts([response("2026-02-12T14:00:00Z"), response("2026-02-12T19:00:00Z")])).toEqual([
      "2026-02-12T14:00:00.000Z",
      "2026-02-12T19:00:00.000Z",
    ]);
  });

  it("continues within 5 hours of the block's start even after a long pause, and starts anew after a gap", () => {
    // 4 h 50 min without a response, still within the block's 5 hours.
    expect(starts([response("2026-02-12T14:05:00Z"), response("2026-02-12T18:55:00Z")])).toHaveLength(1);
    // The block after a gap starts at the hour of the response that ends it, not at the end of the one before.
    expect(starts([response("2026-02-12T14:05:00Z"), response("2026-02-13T09:42:00Z"), response("2026-02-13T10:01:00Z")])).toEqual([
      "2026-02-12T14:00:00.000Z",
      "2026-02-13T09:00:00.000Z",
    ]);
  });

  it("chains blocks: the first response after one ends starts the next at its own hour", () => {
    expect(starts([response("2026-02-12T14:05:00Z"), response("2026-02-12T18:30:00Z"), response("2026-02-12T20:15:00Z")])).toEqual([
      "2026-02-12T14:00:00.000Z",
      "2026-02-12T20:00:00.000Z",
    ]);
  });
});

describe("blockRow", () => {
  it("sums a finished block's figures and names its models in order of first use", () => {
    const row = rowOf(
      [response("2026-02-12T14:10:00Z"), response("2026-02-12T14:20:00Z", "claude-haiku-4-5"), response("2026-02-12T15:00:00Z")],
      "2026-02-13T00:00:00Z",
    );
    expect(row).toMatchObject({
      key: "2026-02-12T14:00:00.000Z",
      start: "2026-02-12T14:00:00.000Z",
      end: "2026-02-12T19:00:00.000Z",
      lastResponseAt: "2026-02-12T15:00:00.000Z",
      isActive: false,
      models: ["claude-opus-4-6", "claude-haiku-4-5"],
      inputTokens: 3_000,
      outputTokens: 600,
      responses: 3,
      threads: 1,
    });
    expect(row.costUsd).toBeCloseTo(0.03, 12);
    expect(row).not.toHaveProperty("burnRate");
    expect(row).not.toHaveProperty("projection");
  });

  it("gives an active block its burn rate between its first and last response and a projection to its end", () => {
    // 3 responses over 50 minutes (14:10 to 15:00); now 16:00, 3 hours before the end at 19:00.
    const row = rowOf(
      [response("2026-02-12T14:10:00Z"), response("2026-02-12T14:30:00Z"), response("2026-02-12T15:00:00Z")],
      "2026-02-12T16:00:00Z",
    );
    expect(row.isActive).toBe(true);
    expect(row.burnRate!.tokensPerMinute).toBeCloseTo(3_600 / 50, 9);
    expect(row.burnRate!.costUsdPerMinute).toBeCloseTo(0.03 / 50, 12);
    expect(row.projection).toEqual({
      totalTokens: Math.round(3_600 + (3_600 / 50) * 180),
      costUsd: expect.any(Number),
      remainingMinutes: 180,
    });
    expect(row.projection!.costUsd).toBeCloseTo(0.03 + (0.03 / 50) * 180, 12);
  });

  it("is active until its end, and not from then on", () => {
    // (Its last response is in the block, so 5 hours after it is never before the block's end.)
    expect(rowOf([response("2026-02-12T14:10:00Z")], "2026-02-12T18:59:59Z").isActive).toBe(true);
    expect(rowOf([response("2026-02-12T14:10:00Z")], "2026-02-12T19:00:00Z").isActive).toBe(false);
    expect(rowOf([response("2026-02-12T14:10:00Z"), response("2026-02-12T18:50:00Z")], "2026-02-12T19:00:00Z").isActive).toBe(false);
  });

  it("has no burn rate with a single response (no time between first and last)", () => {
    const row = rowOf([response("2026-02-12T14:10:00Z")], "2026-02-12T14:30:00Z");
    expect(row.isActive).toBe(true);
    expect(row).not.toHaveProperty("burnRate");
    expect(row).not.toHaveProperty("projection");
  });
});

describe("token limits", () => {
  const rows = [
    rowOf([response("2026-02-10T10:00:00Z"), response("2026-02-10T10:30:00Z")], "2026-02-12T16:00:00Z"),
    rowOf([response("2026-02-11T10:00:00Z")], "2026-02-12T16:00:00Z"),
    rowOf([response("2026-02-12T14:00:00Z"), response("2026-02-12T14:10:00Z"), response("2026-02-12T14:20:00Z")], "2026-02-12T16:00:00Z"),
  ];

  it("resolves max as the most tokens of a completed block, leaving out the active one", () => {
    expect(rows.map((row) => row.isActive)).toEqual([false, false, true]);
    expect(resolveTokenLimit("max", rows)).toBe(2_400);
    expect(resolveTokenLimit(5_000, rows)).toBe(5_000);
    expect(resolveTokenLimit("max", rows.slice(2))).toBeNull();
  });

  it("marks the blocks over the limit, input, output and cache tokens counted", () => {
    expect(withTokenLimit(rows, 2_400).map((row) => row.overTokenLimit)).toEqual([false, false, true]);
    expect(withTokenLimit(rows, 1_000).map((row) => row.overTokenLimit)).toEqual([true, true, true]);
  });
});
