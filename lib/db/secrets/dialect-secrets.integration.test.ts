/**
 * The scan's reads (turnsAfter): batches bounded by turns and by bytes of content and parts, in
 * seq order, covering every turn once, and never empty while turns remain (one turn larger than
 * the bound is a batch of its own).
 */
import { describe, expect, it } from "vitest";
import { newThread, newTurn } from "@/lib/testing/integration";
import { db } from "../engine/client";
import { turnsAfter } from "./dialect-secrets";

describe("the scan's batches", () => {
  it("hold at most maxTurns and about maxBytes, in seq order, every turn once", async () => {
    const thread = await newThread({ toolName: "claude-code" });
    const sizes = [100, 100, 5_000, 100, 20_000, 100, 100, 100, 3_000, 100];
    for (const [i, size] of sizes.entries()) await newTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: "x".repeat(size) });
    const client = await db();
    const first = (await client.turn.findFirst({ where: { threadId: thread.id }, orderBy: { seq: "asc" }, select: { seq: true } }))!.seq;
    const read = async (maxTurns: number, maxBytes: number) => {
      const batches: number[][] = [];
      const full: boolean[] = [];
      for (let after = first - 1; ;) {
        const batch = await turnsAfter(client, after, maxTurns, maxBytes);
        const rows = batch.turns.filter((r) => r.threadId === thread.id);
        if (rows.length === 0) break;
        batches.push(rows.map((r) => r.content.length));
        full.push(batch.full);
        after = rows.at(-1)!.seq;
      }
      return { batches, full };
    };
    expect(await read(1_000, 1_000_000)).toEqual({ batches: [sizes], full: [false] });
    // Three turns is a full batch: more may follow (the last read, of one turn, says there are none).
    expect(await read(3, 1_000_000)).toEqual({
      batches: [[100, 100, 5_000], [100, 20_000, 100], [100, 100, 3_000], [100]],
      full: [true, true, true, false],
    });
    // 6,000 bytes: a turn that would go over it starts the next batch; the 20,000 one is alone.
    expect(await read(1_000, 6_000)).toEqual({
      batches: [[100, 100, 5_000, 100], [20_000], [100, 100, 100, 3_000, 100]],
      full: [true, true, false],
    });
  });
});
