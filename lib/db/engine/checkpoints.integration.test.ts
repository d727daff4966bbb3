/**
 * The import writer's commits leave checkpoints of SQLite's write-ahead log to a worker thread
 * (lib/db/engine/checkpoints.ts): the log's pages reach the database file though the importing
 * connection never reaches its own checkpoint threshold.
 */
import { statSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { sqliteFilePath } from "@/lib/env/database-url";
import { serverSettings } from "@/lib/env";
import { checkpointWorkerIdle, checkpointWorkerRunning } from "./checkpoints";
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
  it("copy the imports' pages into the database file on the worker", async (context) => {
    if (databaseKind(await db()) === "postgres") context.skip();
    const file = sqliteFilePath(serverSettings().databaseUrl);
    const before = statSync(file).size;
    await importSessions("first");
    // 60 turns of 10 KB: far fewer pages than the writer's own threshold (FALLBACK_CHECKPOINT_PAGES),
    // and sooner than the writer's connection closes (its close may checkpoint too).
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 60 * 10_000), { timeout: 1_000, interval: 20 });
  });

  it("end the worker when idle, and start another for the next imports", async (context) => {
    if (databaseKind(await db()) === "postgres") context.skip();
    const file = sqliteFilePath(serverSettings().databaseUrl);
    const endAfter = checkpointWorkerIdle.endAfterMs;
    checkpointWorkerIdle.endAfterMs = 50;
    try {
      await importSessions("before-idle");
      await vi.waitFor(() => expect(checkpointWorkerRunning()).toBe(true), { timeout: 1_000, interval: 5 });
      await vi.waitFor(() => expect(checkpointWorkerRunning()).toBe(false), { timeout: 2_000, interval: 20 });
      const before = statSync(file).size;
      await importSessions("after-idle");
      await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 60 * 10_000), { timeout: 1_000, interval: 20 });
    } finally {
      checkpointWorkerIdle.endAfterMs = endAfter;
    }
  });
});
