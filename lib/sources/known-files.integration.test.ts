/**
 * What a restarted server's sync costs when nothing changed, on a real database: the remembered
 * files are read from the store once, no transcript is opened, nothing is written back. Counted
 * through the store and the importer the sync is given, never timed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { batchLimits } from "@/lib/db/imports/import-batch";
import { forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { makeSourcesHome } from "@/lib/testing/sources-home";
import { importPath } from "@/lib/imports/import-file";
import { dbFiles, type KnownFilesStore } from "./known-files";
import { createSourceSync } from "./sync";

let home: ReturnType<typeof makeSourcesHome>;
beforeEach(() => {
  home = makeSourcesHome();
  setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
});
afterEach(async () => {
  home.remove();
  restoreServerEnv();
  await forgetSyncedImports();
});

/** A sync as a newly started server's, whose store and importer count what they are asked. */
function startedServer() {
  const calls = { under: 0, saved: 0, forgotten: 0, read: [] as string[], readAhead: [] as number[] };
  const files: KnownFilesStore = {
    under: (folder) => ((calls.under += 1), dbFiles.under(folder)),
    save: (rows) => ((calls.saved += rows.length), dbFiles.save(rows)),
    forget: (paths) => ((calls.forgotten += paths.length), dbFiles.forget(paths)),
  };
  const sync = createSourceSync({
    files,
    importFile: (file, within, readAhead) => {
      calls.read.push(file);
      calls.readAhead.push(readAhead?.size ?? 0);
      return importPath(file, file, undefined, { follow: true, within, readAhead });
    },
    log: () => {},
  });
  return { sync, calls };
}

describe("known files across a restart", () => {
  it("confirms unchanged files from one read of the remembered ones: none opened, nothing written", async () => {
    const first = startedServer();
    expect((await first.sync.sync()).folders[0]).toMatchObject({ filesSeen: 7, imported: 7 });
    expect(first.calls).toMatchObject({ under: 1, saved: 7, forgotten: 0 });
    expect(first.calls.read).toHaveLength(7);
    // Every file after the first read ahead on the parse worker (up to 16), each taken by its import
    // (counted as the import begins, its own read still among them).
    expect(first.calls.readAhead).toEqual([6, 6, 5, 4, 3, 2, 1]);
    await first.sync.close();

    const restarted = startedServer();
    expect((await restarted.sync.sync()).folders[0]).toMatchObject({ filesSeen: 7, imported: 0, unchanged: 7, failed: 0 });
    expect(restarted.calls).toEqual({ under: 1, saved: 0, forgotten: 0, read: [], readAhead: [] });
    // The next syncs of the same process compare with what it holds: the store is not read again.
    expect((await restarted.sync.sync()).folders[0]).toMatchObject({ unchanged: 7 });
    expect(restarted.calls).toEqual({ under: 1, saved: 0, forgotten: 0, read: [], readAhead: [] });
    await restarted.sync.close();
  });

  it("remembers a file only once its import committed: a batch whose COMMIT fails leaves its files to the next sync", async () => {
    const limits = { ...batchLimits };
    // The whole sync in one batch, and every turn breaks a deferred constraint: the COMMIT fails.
    Object.assign(batchLimits, { firstBatchMs: 60_000, batchMs: 60_000, idleMs: 60_000 });
    const client = await db();
    const poison = POISON[databaseKind(client)];
    for (const statement of poison.create) await client.$executeRawUnsafe(statement);
    try {
      const first = startedServer();
      const failed = (await first.sync.sync()).folders[0]!;
      expect(failed).toMatchObject({ filesSeen: 7, imported: 0, failed: 7 });
      expect(failed.failures[0]!.reason).toBe("its import could not be committed");
      expect(first.calls.saved).toBe(0);
      expect(await client.thread.count()).toBe(0);
      await first.sync.close();
    } finally {
      Object.assign(batchLimits, limits);
      for (const statement of poison.drop) await client.$executeRawUnsafe(statement);
    }
    const next = startedServer();
    expect((await next.sync.sync()).folders[0]).toMatchObject({ filesSeen: 7, imported: 7, failed: 0 });
    expect(next.calls.read).toHaveLength(7);
    await next.sync.close();
  });
});

/** A row for every turn inserted that refers to nothing, checked only at COMMIT; and its removal. */
const POISON = {
  sqlite: {
    create: [
      `CREATE TABLE "TestPoisonParent" ("id" INTEGER PRIMARY KEY)`,
      `CREATE TABLE "TestPoison" ("parent" INTEGER REFERENCES "TestPoisonParent"("id") DEFERRABLE INITIALLY DEFERRED)`,
      `CREATE TRIGGER "TestPoisonTurn" AFTER INSERT ON "Turn" BEGIN INSERT INTO "TestPoison" VALUES (-1); END`,
    ],
    drop: [`DROP TRIGGER "TestPoisonTurn"`, `DROP TABLE "TestPoison"`, `DROP TABLE "TestPoisonParent"`],
  },
  postgres: {
    create: [
      `CREATE TABLE "TestPoisonParent" ("id" INTEGER PRIMARY KEY)`,
      `CREATE TABLE "TestPoison" ("parent" INTEGER REFERENCES "TestPoisonParent"("id") DEFERRABLE INITIALLY DEFERRED)`,
      `CREATE FUNCTION "TestPoisonTurn"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "TestPoison" VALUES (-1); RETURN NULL; END $$`,
      `CREATE TRIGGER "TestPoisonTurn" AFTER INSERT ON "Turn" FOR EACH ROW EXECUTE FUNCTION "TestPoisonTurn"()`,
    ],
    drop: [
      `DROP TRIGGER "TestPoisonTurn" ON "Turn"`,
      `DROP FUNCTION "TestPoisonTurn"()`,
      `DROP TABLE "TestPoison"`,
      `DROP TABLE "TestPoisonParent"`,
    ],
  },
};
