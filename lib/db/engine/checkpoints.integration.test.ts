/**
 * The import writer's commits, and the app connection's writes, leave checkpoints of SQLite's
 * write-ahead log to a worker thread (lib/db/engine/checkpoints.ts): the log's pages reach the
 * database file though neither connection reaches its own checkpoint threshold.
 */
import { statSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { sqliteFilePath } from "@/lib/env/database-url";
import { serverSettings } from "@/lib/env";
import { checkpointWorkerIdle, checkpointWorkerRunning, FALLBACK_CHECKPOINT_PAGES } from "./checkpoints";
import { db } from "./client";
import { databaseKind } from "./create-client";
import { storeParsedSource } from "../imports/turn-stream-import";

/** Imports 20 sessions of three 10 KB turns each (keys from `run`). */
async function importSessions(run: string): Promise<void> {
  const text = "a long tool output line ".repeat(400); // about 10 KB a turn
  for (let i = 0; i < 20; i++) {
    const turns = [0, 1, 2].map((n) => ({ key: `t${n}`, role: "user" as const, content: `${run} ${i}.${n} ${text}` }));
    const thread = { key: `checkpointed-${run}-${i}`, toolName: "claude-code", title: null, turns };
    await storeParsedSource(
      { format: "claude-code", threads: [thread], skipped: [], warnings: [] },
      { name: thread.key, sha256: thread.key.padEnd(64, "0"), size: 1 },
    );
  }
}

describe("checkpoints after imports", () => {
  it("copy the app connection's writes too, which no longer checkpoints on its own commits", async (context) => {
    const client = await db();
    if (databaseKind(client) === "postgres") context.skip();
    const [pragma] = await client.$queryRawUnsafe<{ wal_autocheckpoint: number }[]>("PRAGMA wal_autocheckpoint");
    expect(Number(pragma?.wal_autocheckpoint)).toBe(FALLBACK_CHECKPOINT_PAGES);
    const file = sqliteFilePath(serverSettings().databaseUrl);
    const before = statSync(file).size;
    const value = "a setting's long value ".repeat(450); // about 10 KB
    // First in this file: no import's checkpoint is pending. Writes outside a transaction, and one transaction's: both ask for a checkpoint.
    for (let i = 0; i < 30; i++) await client.appSetting.create({ data: { key: `checkpointed-${i}`, value } });
    await client.$transaction(async (tx) => {
      for (let i = 30; i < 60; i++) await tx.appSetting.create({ data: { key: `checkpointed-${i}`, value } });
    });
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 60 * 10_000), { timeout: 1_000, interval: 20 });
  });

  it("copy the imports' pages into the database file on the worker", async (context) => {
    if (databaseKind(await db()) === "postgres") context.skip();
    const file = sqliteFilePath(serverSettings().databaseUrl);
    const before = statSync(file).size;
    await importSessions("first");
    // 60 turns of 10 KB: far fewer pages than the writer's own threshold (FALLBACK_CHECKPOINT_PAGES),
    // and sooner than the writer's connection closes (its close may checkpoint too).
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 60 * 10_000), { timeout: 1_000, interval: 20 });
  });

  it("end the worker when idle, start none for reads, and start another for the next imports", async (context) => {
    if (databaseKind(await db()) === "postgres") context.skip();
    const file = sqliteFilePath(serverSettings().databaseUrl);
    const endAfter = checkpointWorkerIdle.endAfterMs;
    checkpointWorkerIdle.endAfterMs = 50;
    try {
      await importSessions("before-idle");
      await vi.waitFor(() => expect(checkpointWorkerRunning()).toBe(true), { timeout: 1_000, interval: 5 });
      await vi.waitFor(() => expect(checkpointWorkerRunning()).toBe(false), { timeout: 2_000, interval: 20 });
      // Reads, and a transaction that only read, ask for no checkpoint: the worker stays ended.
      const client = await db();
      await client.thread.count();
      await client.$transaction(async (tx) => tx.appSetting.findMany({ take: 1 }));
      let started = false;
      for (let waited = 0; waited < 300; waited += 5) {
        started ||= checkpointWorkerRunning();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(started).toBe(false);
      const before = statSync(file).size;
      await importSessions("after-idle");
      await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 60 * 10_000), { timeout: 1_000, interval: 20 });
    } finally {
      checkpointWorkerIdle.endAfterMs = endAfter;
    }
  });
});
