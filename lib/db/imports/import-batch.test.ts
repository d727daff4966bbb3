/**
 * A bulk run's batches (import-batch.ts) on a transaction that records what it is asked: many
 * imports to a transaction, each after the first in a savepoint; a failed import undone alone;
 * a COMMIT that fails undoes every import in its batch and tells whenCommitted so; a large file
 * has a batch of its own. (The real writers: import-batch.integration.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterBulkRuns, batchLimits, currentBulkRun, startBulkImports, type BulkRun, type ImportTransaction } from "./import-batch";
import type { ImportWriter } from "./import-rows";

const URL = "file:/nowhere/test.sqlite";
const limits = { ...batchLimits };

/** Transactions that log their calls; `failCommit` makes the next COMMIT fail. */
function recorder() {
  const log: string[] = [];
  let failCommit = false;
  let begun = 0;
  let contend = () => {};
  const begin = async (): Promise<ImportTransaction> => {
    const id = ++begun;
    log.push(`begin ${id}`);
    return {
      writer: {} as ImportWriter,
      reader: null,
      savepoint: async () => void log.push("savepoint"),
      releaseSavepoint: async () => void log.push("release"),
      rollbackToSavepoint: async () => void log.push("rollback to savepoint"),
      commit: async () => {
        if (failCommit) {
          failCommit = false;
          log.push(`commit ${id} failed`);
          throw new Error("disk full");
        }
        log.push(`commit ${id}`);
      },
      rollback: async () => void log.push(`rollback ${id}`),
      whenContended: (listener) => void (contend = listener),
    };
  };
  return { log, begin, failNextCommit: () => void (failCommit = true), contend: () => contend() };
}

/** One import in the run: logs `name` as it writes, throws when `fails`; answers what its transaction's end said. */
async function importOne(
  run: BulkRun,
  tx: ReturnType<typeof recorder>,
  name: string,
  { fails = false, bytes = 100, during }: { fails?: boolean; bytes?: number; during?: () => void } = {},
): Promise<{ result: Promise<string>; ended: string[] }> {
  const ended: string[] = [];
  const result = run.run(() =>
    run.join(
      URL,
      tx.begin,
      async (_writer, end) => {
        end.afterCommit(() => ended.push("committed"));
        end.afterRollback(() => ended.push("rolled back"));
        tx.log.push(`write ${name}`);
        during?.();
        if (fails) throw new Error(`${name} broke off`);
        return name;
      },
      bytes,
    ),
  );
  await result.catch(() => undefined);
  return { result, ended };
}

describe("a bulk run's batches", () => {
  beforeEach(() => Object.assign(batchLimits, { firstBatchMs: 60_000, batchMs: 60_000, idleMs: 60_000 }));
  afterEach(() => Object.assign(batchLimits, limits));

  it("put many imports in one transaction, each after the first in a savepoint, committed when the run ends", async () => {
    const tx = recorder();
    const run = startBulkImports();
    const a = await importOne(run, tx, "a");
    const b = await importOne(run, tx, "b");
    expect(await b.result).toBe("b");
    expect(a.ended).toEqual([]); // not committed yet
    await run.finish();
    expect(tx.log).toEqual(["begin 1", "write a", "savepoint", "write b", "release", "commit 1"]);
    expect([a.ended, b.ended]).toEqual([["committed"], ["committed"]]);
  });

  it("undo an import that fails back to its savepoint, and keep the others", async () => {
    const tx = recorder();
    const run = startBulkImports();
    const a = await importOne(run, tx, "a");
    const b = await importOne(run, tx, "b", { fails: true });
    await expect(b.result).rejects.toThrow("b broke off");
    expect(b.ended).toEqual(["rolled back"]);
    const c = await importOne(run, tx, "c");
    await run.finish();
    expect(tx.log).toEqual([
      "begin 1",
      "write a",
      "savepoint",
      "write b",
      "rollback to savepoint",
      "savepoint",
      "write c",
      "release",
      "commit 1",
    ]);
    expect([a.ended, c.ended]).toEqual([["committed"], ["committed"]]);
  });

  it("roll back the whole batch when its first import fails (it needs no savepoint)", async () => {
    const tx = recorder();
    const run = startBulkImports();
    const a = await importOne(run, tx, "a", { fails: true });
    const b = await importOne(run, tx, "b");
    await run.finish();
    expect(tx.log).toEqual(["begin 1", "write a", "rollback 1", "begin 2", "write b", "commit 2"]);
    expect([a.ended, b.ended]).toEqual([["rolled back"], ["committed"]]);
  });

  it("tell every import of a batch whose COMMIT failed, and whenCommitted's callers, that it was rolled back", async () => {
    const tx = recorder();
    const run = startBulkImports();
    const remembered: string[] = [];
    const a = await importOne(run, tx, "a");
    run.whenCommitted(
      () => remembered.push("a done"),
      () => remembered.push("a undone"),
    );
    const b = await importOne(run, tx, "b");
    run.whenCommitted(
      () => remembered.push("b done"),
      () => remembered.push("b undone"),
    );
    tx.failNextCommit();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await run.finish();
    expect(logged.mock.calls[0]?.[0]).toMatch(/could not be committed .*disk full/);
    logged.mockRestore();
    expect(tx.log.at(-1)).toBe("commit 1 failed");
    expect([a.ended, b.ended]).toEqual([["rolled back"], ["rolled back"]]);
    expect(remembered).toEqual(["a undone", "b undone"]);
    // Nothing open: what is asked now is committed as it stands.
    run.whenCommitted(
      () => remembered.push("after done"),
      () => remembered.push("after undone"),
    );
    expect(remembered.at(-1)).toBe("after done");
  });

  it("throw to the import whose end commits a batch that fails, once the batch is due", async () => {
    const tx = recorder();
    const run = startBulkImports();
    const a = await importOne(run, tx, "a");
    tx.failNextCommit();
    const b = await importOne(run, tx, "b", { during: () => void (batchLimits.firstBatchMs = 0) });
    await expect(b.result).rejects.toThrow("disk full");
    expect([a.ended, b.ended]).toEqual([["rolled back"], ["rolled back"]]);
    expect(tx.log).toEqual(["begin 1", "write a", "savepoint", "write b", "release", "commit 1 failed"]);
    await run.finish();
  });

  it("commit the run's first batch after firstBatchMs, and the later ones after batchMs", async () => {
    const tx = recorder();
    const run = startBulkImports();
    // A first batch due at once: it commits at the end of the import that finds it so.
    batchLimits.firstBatchMs = 0;
    await importOne(run, tx, "a");
    await importOne(run, tx, "b");
    // The second batch is not due at batchMs: b and c share it.
    await importOne(run, tx, "c");
    expect(tx.log).toEqual(["begin 1", "write a", "commit 1", "begin 2", "write b", "savepoint", "write c", "release"]);
    // Due now: the next import finds it so and commits it before it writes (in a batch due at once).
    batchLimits.batchMs = 0;
    await importOne(run, tx, "d");
    expect(tx.log.slice(8)).toEqual(["commit 2", "begin 3", "write d", "commit 3"]);
    await run.finish();
  });

  it("give a large file a batch of its own, committed at its end", async () => {
    const tx = recorder();
    const run = startBulkImports();
    await importOne(run, tx, "small");
    const large = await importOne(run, tx, "large", { bytes: batchLimits.aloneBytes + 1 });
    expect(large.ended).toEqual(["committed"]);
    await importOne(run, tx, "next");
    await run.finish();
    expect(tx.log).toEqual([
      "begin 1",
      "write small",
      "commit 1",
      "begin 2",
      "write large",
      "commit 2",
      "begin 3",
      "write next",
      "commit 3",
    ]);
  });

  it("commit between imports when another writer asks for the lock, and after the import in progress when it asks meanwhile", async () => {
    const tx = recorder();
    const run = startBulkImports();
    const a = await importOne(run, tx, "a");
    tx.contend();
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.ended).toEqual(["committed"]);
    await importOne(run, tx, "b");
    const c = await importOne(run, tx, "c", { during: () => tx.contend() });
    await new Promise((resolve) => setImmediate(resolve));
    expect(c.ended).toEqual(["committed"]);
    await run.finish();
    expect(tx.log).toEqual(["begin 1", "write a", "commit 1", "begin 2", "write b", "savepoint", "write c", "release", "commit 2"]);
  });

  it("commit a batch that no import joins for a while", async () => {
    batchLimits.idleMs = 1;
    const tx = recorder();
    const run = startBulkImports();
    const a = await importOne(run, tx, "a");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.ended).toEqual(["committed"]);
    await run.finish();
  });

  it("leave imports outside `run`, and after `finish`, to transactions of their own", async () => {
    const run = startBulkImports();
    expect(await run.run(async () => currentBulkRun())).toBe(run);
    expect(currentBulkRun()).toBeNull();
    await run.finish();
    expect(await run.run(async () => currentBulkRun())).toBeNull();
  });
});

describe("a background pass asked for during bulk runs", () => {
  it("runs at once when none is in progress, else once after the last has ended, however often asked", async () => {
    const held = { heldForBulkRuns: false };
    let fired = 0;
    afterBulkRuns(held, () => fired++);
    expect(fired).toBe(1);

    const first = startBulkImports();
    const second = startBulkImports();
    afterBulkRuns(held, () => fired++);
    afterBulkRuns(held, () => fired++);
    await first.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toBe(1); // the second run still goes on
    await second.finish();
    await vi.waitFor(() => expect(fired).toBe(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toBe(2);
    expect(held.heldForBulkRuns).toBe(false);
  });
});
