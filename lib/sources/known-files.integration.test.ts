/**
 * What a restarted server's sync costs when nothing changed, on a real database: the remembered
 * files are read from the store once, no transcript is opened, nothing is written back. Counted
 * through the store and the importer the sync is given, never timed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
  const calls = { under: 0, saved: 0, forgotten: 0, read: [] as string[] };
  const files: KnownFilesStore = {
    under: (folder) => ((calls.under += 1), dbFiles.under(folder)),
    save: (rows) => ((calls.saved += rows.length), dbFiles.save(rows)),
    forget: (paths) => ((calls.forgotten += paths.length), dbFiles.forget(paths)),
  };
  const sync = createSourceSync({
    files,
    importFile: (file, within) => (calls.read.push(file), importPath(file, file, undefined, { follow: true, within })),
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
    await first.sync.close();

    const restarted = startedServer();
    expect((await restarted.sync.sync()).folders[0]).toMatchObject({ filesSeen: 7, imported: 0, unchanged: 7, failed: 0 });
    expect(restarted.calls).toEqual({ under: 1, saved: 0, forgotten: 0, read: [] });
    // The next syncs of the same process compare with what it holds: the store is not read again.
    expect((await restarted.sync.sync()).folders[0]).toMatchObject({ unchanged: 7 });
    expect(restarted.calls).toEqual({ under: 1, saved: 0, forgotten: 0, read: [] });
    await restarted.sync.close();
  });
});
