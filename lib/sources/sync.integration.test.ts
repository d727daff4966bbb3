/**
 * Following transcript folders on a real database and real temporary folders: a temporary HOME
 * whose ~/.claude/projects holds copies of the real Claude Code fixtures. Files actually read are
 * counted through the importer the sync is given (importPath, wrapped), never timed.
 */
import { appendFileSync, chmodSync, cpSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { claimJobLease, releaseJobLease } from "@/lib/db/engine/job-leases";
import { importPath } from "@/lib/imports/import-file";
import { forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { CLAUDE_CODE_FIXTURES, makeSourcesHome } from "@/lib/testing/sources-home";
import { createSourceSync, SOURCES_LEASE } from "./sync";
import { countingSync, ON_POSTGRES } from "@/lib/testing/source-sync";

const DEMO_SESSION = path.join(CLAUDE_CODE_FIXTURES, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
const runningAsRoot = process.getuid?.() === 0;

let home: ReturnType<typeof makeSourcesHome>;
beforeEach(() => {
  home = makeSourcesHome();
});
afterEach(async () => {
  home.remove();
  restoreServerEnv();
  await forgetSyncedImports();
});

async function threadCount(): Promise<number> {
  return (await db()).thread.count({ where: { source: "import:claude-code" } });
}

describe("followed sources", () => {
  it.runIf(ON_POSTGRES)("follows nothing on PostgreSQL when THREADLINE_SOURCES is unset (a shared database)", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: undefined });
    const { sync, read } = countingSync();
    expect(await sync.sync()).toMatchObject({ origin: "off", folders: [] });
    expect(read).toEqual([]);
  });

  it.skipIf(ON_POSTGRES)(
    "follows the default folders that exist under HOME, imports them, then skips them by size and mtime without reading them",
    async () => {
      setServerEnv({ HOME: home.home, THREADLINE_SOURCES: undefined });
      const { sync, read } = countingSync();
      // ~/.codex/sessions and ~/.gemini/tmp do not exist: not followed.
      expect(sync.status()).toMatchObject({
        origin: "default",
        syncing: false,
        folders: [{ path: home.claudeProjects, state: "found", filesSeen: 0 }],
      });

      const first = await sync.sync();
      expect(first.folders).toHaveLength(1);
      // 5 sessions, a sub-agent, and a compaction summariser's run (no thread of its own).
      expect(first.folders[0]).toMatchObject({
        path: home.claudeProjects,
        state: "found",
        filesSeen: 7,
        imported: 7,
        unchanged: 0,
        failed: 0,
        failures: [],
      });
      expect(first.folders[0]!.lastSyncAt).not.toBeNull();
      expect(first.folders[0]!.lastChangeAt).not.toBeNull();
      expect(read).toHaveLength(7);
      const threads = await threadCount();
      expect(threads).toBeGreaterThanOrEqual(6);

      const second = await sync.sync();
      expect(second.folders[0]).toMatchObject({ filesSeen: 7, imported: 0, unchanged: 7, failed: 0 });
      expect(read).toHaveLength(7); // nothing read, nothing hashed
      expect(await threadCount()).toBe(threads);

      // A default folder made later is followed from the next sync on.
      const codex = path.join(home.home, ".codex", "sessions");
      mkdirSync(codex, { recursive: true });
      expect((await sync.sync()).folders.map((f) => f.path)).toEqual([home.claudeProjects, codex]);
    },
  );

  it("follows nothing when THREADLINE_SOURCES is off", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: "off" });
    const { sync, read } = countingSync();
    expect(await sync.sync()).toEqual({ origin: "off", syncing: false, heldElsewhere: false, folders: [] });
    expect(read).toEqual([]);
    expect(await threadCount()).toBe(0);
  });

  it("follows an explicit list: a missing folder is reported as missing, a relative entry is ignored", async () => {
    const other = path.join(home.home, "elsewhere");
    mkdirSync(other);
    cpSync(DEMO_SESSION, path.join(other, "demo.jsonl"));
    const missing = path.join(home.home, "not-there");
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: `${other}:${missing}:relative/folder` });
    const { sync, read } = countingSync();
    const status = await sync.sync();
    expect(status.origin).toBe("setting");
    expect(status.folders.map((f) => [f.path, f.state])).toEqual([
      [other, "found"],
      [missing, "missing"],
    ]);
    expect(status.folders[0]).toMatchObject({ filesSeen: 1, imported: 1 });
    expect(read).toEqual([path.join(other, "demo.jsonl")]); // ~/.claude/projects is not in the list

    // The folder appears: the next sync imports it.
    mkdirSync(missing);
    cpSync(DEMO_SESSION, path.join(missing, "again.jsonl"));
    const later = await sync.sync();
    expect(later.folders[1]).toMatchObject({ state: "found", filesSeen: 1 });
  });

  it("reports a file it cannot read or import with its reason, imports the others, and tries it again", async () => {
    const folder = path.join(home.claudeProjects, "-path-to-Demo");
    const bad = path.join(folder, "0b7e6a0c-0000-4000-8000-000000000000.jsonl");
    // As root, chmod 000 does not stop reads: a file that fails to parse stands in for it there.
    if (runningAsRoot) writeFileSync(bad, "this is not a transcript\n");
    else {
      cpSync(DEMO_SESSION, bad);
      chmodSync(bad, 0o000);
    }
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync, read } = countingSync();
    const first = (await sync.sync()).folders[0]!;
    expect(first).toMatchObject({ filesSeen: 8, imported: 7, failed: 1 });
    expect(first.failures).toEqual([{ file: bad, reason: expect.any(String) }]);
    expect(first.failures[0]!.reason).toMatch(runningAsRoot ? /format|recogni|not/i : /permission denied/);
    expect(first.failures[0]!.reason, "the file is named once, beside the reason").not.toContain(bad);

    const second = (await sync.sync()).folders[0]!;
    expect(second).toMatchObject({ filesSeen: 8, imported: 0, unchanged: 7, failed: 1 });
    // Unreadable: read again at each sync. Bad content: not read again until the file changes.
    expect(read.filter((f) => f === bad)).toHaveLength(runningAsRoot ? 1 : 2);

    if (runningAsRoot)
      writeFileSync(
        bad,
        readFileSync(DEMO_SESSION, "utf8").replaceAll("5c0375b4-57a5-4f26-b12d-d022ee4e51b7", "0b7e6a0c-0000-4000-8000-000000000000"),
      );
    else chmodSync(bad, 0o644);
    const third = (await sync.sync()).folders[0]!;
    expect(third).toMatchObject({ filesSeen: 8, failed: 0, failures: [] });
    expect(third.imported + third.unchanged).toBe(8);
  });

  it("adds only the new turns of a file that grew between two syncs", async () => {
    const folder = path.join(home.home, "live");
    mkdirSync(folder);
    const session = path.join(folder, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
    const lines = readFileSync(DEMO_SESSION, "utf8").split("\n").filter(Boolean);
    writeFileSync(session, `${lines.slice(0, 20).join("\n")}\n`);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const { sync, reports } = countingSync();
    await sync.sync();
    const first = reports.get(session)!;
    expect(first.status).toBe("imported");
    const client = await db();
    const turnsOf = (ids: string[]) =>
      client.turn.findMany({
        where: { threadId: { in: ids } },
        orderBy: [{ threadId: "asc" }, { index: "asc" }],
        select: { id: true, threadId: true, index: true },
      });
    const before = await turnsOf(first.threadIds);
    expect(before.length).toBeGreaterThan(0);

    appendFileSync(session, `${lines.slice(20).join("\n")}\n`);
    const status = await sync.sync();
    expect(status.folders[0]).toMatchObject({ imported: 1, unchanged: 0 });
    const grown = reports.get(session)!;
    expect(grown.turnsAdded).toBeGreaterThan(0);
    // Nothing the first sync stored is rewritten or removed: threads only gain turns.
    for (const result of grown.threadResults) expect(["appended", "unchanged", "created"]).toContain(result.change);
    expect(grown.threadResults.some((r) => r.change === "appended")).toBe(true);
    expect(grown.threadResults.reduce((n, r) => n + r.turnsRemoved, 0)).toBe(0);
    const after = await turnsOf(first.threadIds);
    const addedToThem = grown.threadResults.filter((r) => first.threadIds.includes(r.id)).reduce((n, r) => n + r.turnsAdded, 0);
    expect(addedToThem).toBeGreaterThan(0);
    expect(after.length).toBe(before.length + addedToThem);
    // The turns the first sync stored are the same rows, untouched.
    const kept = new Set(after.map((t) => t.id));
    for (const turn of before) expect(kept.has(turn.id), `turn ${turn.index} of ${turn.threadId} kept`).toBe(true);
  });

  it("after a restart (a new sync on the same database) reads only what changed meanwhile, and forgets files that are gone", async () => {
    const folder = path.join(home.claudeProjects, "-path-to-Demo");
    const bad = path.join(folder, "0b7e6a0c-0000-4000-8000-000000000000.jsonl");
    writeFileSync(bad, "this is not a transcript\n");
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const before = countingSync();
    expect((await before.sync.sync()).folders[0]).toMatchObject({ filesSeen: 8, imported: 7, failed: 1 });
    await before.sync.close();

    const grown = path.join(home.claudeProjects, "-home-marco-projects-spotter", "55604662-cf2a-4331-851a-ec234028f8ca.jsonl");
    appendFileSync(grown, readFileSync(grown, "utf8").split("\n")[0] + "\n");
    const gone = path.join(home.claudeProjects, "-home-marco-projects-spotter", "d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl");
    rmSync(gone);

    const after = countingSync();
    const status = (await after.sync.sync()).folders[0]!;
    // The grown file is read; the other five unchanged ones and the bad one are not.
    expect(after.read).toEqual([grown]);
    expect(status).toMatchObject({ filesSeen: 7, unchanged: 6, failed: 1 });
    expect(status.failures).toEqual([{ file: bad, reason: expect.stringMatching(/format|recogni|not/i) }]);
    const remembered = await (await db()).sourceFile.findMany({ orderBy: { path: "asc" } });
    expect(remembered.map((row) => row.path)).not.toContain(gone);
    expect(remembered).toHaveLength(7);
    expect(remembered.find((row) => row.path === bad)?.failure).toMatch(/format|recogni|not/i);
  });

  it("a half-written last line waits until it is complete, then its turn is imported once", async () => {
    const folder = path.join(home.home, "live-half");
    mkdirSync(folder);
    const session = path.join(folder, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
    const lines = readFileSync(DEMO_SESSION, "utf8").split("\n").filter(Boolean);
    const userLine = lines.findIndex((line, i) => i >= 10 && line.includes('"type":"user"'));
    expect(userLine).toBeGreaterThan(0);
    const [head, last] = [lines.slice(0, userLine), lines[userLine]!];
    // The agent has written half of its next line.
    writeFileSync(session, `${head.join("\n")}\n${last.slice(0, Math.floor(last.length / 2))}`);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const { sync, reports } = countingSync();
    expect((await sync.sync()).folders[0]).toMatchObject({ imported: 1, failed: 0 });
    const first = reports.get(session)!;
    const client = await db();
    const turns = () => client.turn.count({ where: { threadId: { in: first.threadIds } } });
    const before = await turns();

    appendFileSync(session, `${last.slice(Math.floor(last.length / 2))}\n`);
    expect((await sync.sync()).folders[0]).toMatchObject({ imported: 1, failed: 0 });
    const completed = reports.get(session)!;
    expect(completed.turnsAdded).toBeGreaterThan(0);
    expect(completed.threadResults.reduce((n, r) => n + r.turnsRemoved, 0)).toBe(0);
    const after = await turns();
    expect(after).toBe(before + completed.turnsAdded);

    // Synced again unchanged: nothing is added twice.
    expect((await sync.sync()).folders[0]).toMatchObject({ imported: 0, unchanged: 1 });
    expect(await turns()).toBe(after);
  });

  it("keeps the threads of a file that was deleted", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync } = countingSync();
    await sync.sync();
    const threads = await threadCount();
    rmSync(path.join(home.claudeProjects, "-path-to-Demo"), { recursive: true });
    const status = await sync.sync();
    expect(status.folders[0]).toMatchObject({ filesSeen: 6, failed: 0 });
    expect(await threadCount()).toBe(threads);
  });

  it("runs one sync at a time: a second call while one runs joins it", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync, read } = countingSync();
    const started = sync.start();
    expect(started.syncing).toBe(true);
    const [a, b] = await Promise.all([sync.sync(), sync.sync()]);
    expect(a).toEqual(b);
    expect(a.syncing).toBe(false);
    expect(read).toHaveLength(7);
  });

  it("watching: a new session and a session that grew are imported soon after they change, without a sync being asked for", async () => {
    const folder = path.join(home.home, "watched");
    mkdirSync(folder);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const read: string[] = [];
    const sync = createSourceSync({ watch: true, log: () => undefined, importFile: (file) => (read.push(file), importPath(file)) });
    try {
      expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching", filesSeen: 0 });

      // A new project folder with a session in it (a folder made after the watch began).
      const session = path.join(folder, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
      const lines = readFileSync(DEMO_SESSION, "utf8").split("\n").filter(Boolean);
      mkdirSync(path.dirname(session));
      writeFileSync(session, `${lines.slice(0, 20).join("\n")}\n`);
      await expect.poll(() => threadCount(), { timeout: 15_000 }).toBeGreaterThan(0);
      const client = await db();
      const turnsBefore = await client.turn.count();

      appendFileSync(session, `${lines.slice(20).join("\n")}\n`);
      await expect.poll(() => client.turn.count(), { timeout: 15_000 }).toBeGreaterThan(turnsBefore);
      await expect.poll(() => sync.status().folders[0]?.state, { timeout: 15_000 }).toBe("watching");
      expect(read.every((f) => f === session)).toBe(true);
    } finally {
      await sync.close();
    }
  });

  it("reads the most recently modified files first, so a first sync shows a person's latest sessions first", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const first = countingSync();
    await first.sync.sync();
    await first.sync.close();
    const files = [...first.read];
    expect(files).toHaveLength(7);
    await forgetSyncedImports();
    // Modified one minute apart, oldest first, in an order unlike the names' (which the walk lists in).
    const byName = [...files].sort();
    const order = [3, 0, 5, 1, 6, 2, 4].map((i) => byName[i]!);
    const base = Date.now() / 1000 - 3_600;
    order.forEach((file, i) => utimesSync(file, base + i * 60, base + i * 60));
    const { sync, read } = countingSync();
    const seen: (number | null)[] = [];
    const watched = createSourceSync({
      log: () => undefined,
      importFile: async (file) => (seen.push(watched.status().folders[0]!.filesFound), importPath(file)),
    });
    const status = await sync.sync();
    expect(read).toEqual([...order].reverse());
    // The walk ends before the first file is read: the page counts up to what it found.
    expect(status.folders[0]).toMatchObject({ filesFound: 7, filesSeen: 7 });
    await forgetSyncedImports();
    await watched.sync();
    await Promise.all([sync.close(), watched.close()]);
    expect(seen).toEqual(Array(7).fill(7));
  });

  it("leaves the sync to another instance holding the lease on the same database", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    expect(await claimJobLease(SOURCES_LEASE, "another-instance", 60_000)).toBe(true);
    const { sync, read } = countingSync();
    const held = await sync.sync();
    expect(held.heldElsewhere).toBe(true);
    expect(read).toEqual([]);
    await releaseJobLease(SOURCES_LEASE, "another-instance");
    const synced = await sync.sync();
    expect(synced).toMatchObject({ heldElsewhere: false, folders: [{ imported: 7 }] });
    // The lease is released after each sync, so another instance may take the next one.
    expect(await claimJobLease(SOURCES_LEASE, "another-instance", 60_000)).toBe(true);
    await releaseJobLease(SOURCES_LEASE, "another-instance");
  });

  it("close() resolves once the running sync has let go of the lease, and a sync asked for after it claims nothing", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    let release!: () => void;
    const importing = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstImport = new Promise<void>((resolve) => (started = resolve));
    const sync = createSourceSync({ log: () => undefined, importFile: async (file) => (started(), await importing, importPath(file)) });
    const running = sync.sync();
    await firstImport;
    let closed = false;
    const closing = sync.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false); // the sync still holds the lease
    release();
    await closing;
    await running;
    expect(await claimJobLease(SOURCES_LEASE, "another-instance", 60_000)).toBe(true);
    await releaseJobLease(SOURCES_LEASE, "another-instance");
    // Closed: a later request does not take the lease from the next instance (or test).
    await sync.sync();
    expect(await claimJobLease(SOURCES_LEASE, "another-instance", 60_000)).toBe(true);
    await releaseJobLease(SOURCES_LEASE, "another-instance");
  });
});
