/**
 * Followed folders stay inside (issue 33): nothing reached through a symbolic link out of a
 * followed folder is opened, walked or watched; such entries are listed as skipped with the reason.
 * Real temporary folders, a real database; what the sync reads is counted through its importer,
 * and that an outside file was never read is proved by its unique marker never reaching the database.
 */
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { importPath } from "@/lib/imports/import-file";
import { forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { realOpenCodeExports, writeOpenCodeDatabase, writeStorageTree } from "@/lib/testing/opencode-storage";
import { CLAUDE_CODE_FIXTURES, makeSourcesHome } from "@/lib/testing/sources-home";
import { createSourceSync, type SourceSync, type SourceSyncOptions } from "./sync";

const DEMO_SESSION = path.join(CLAUDE_CODE_FIXTURES, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
const SPOTTER_SESSION = path.join(CLAUDE_CODE_FIXTURES, "-home-marco-projects-spotter", "55604662-cf2a-4331-851a-ec234028f8ca.jsonl");
const OUTSIDE = "a symbolic link to a place outside the followed folder";
const PROC_ENVIRON = "/proc/self/environ";
const SOON = { timeout: 15_000, interval: 50 };

let home: ReturnType<typeof makeSourcesHome>;
/** A folder beside the followed one, with a transcript that holds `marker`. */
let outside: string;
let marker: string;
const open: SourceSync[] = [];

beforeEach(() => {
  home = makeSourcesHome({ withClaudeCode: false });
  outside = mkdtempSync(path.join(os.tmpdir(), "threadline-outside-"));
  marker = `outside-marker-${randomUUID()}`;
  // A role/content list: any folder walk would import it, so its marker would reach the turns.
  writeFileSync(
    path.join(outside, "secret.json"),
    JSON.stringify([
      { role: "user", content: `the secret is ${marker}` },
      { role: "assistant", content: "noted" },
    ]),
  );
  mkdirSync(path.join(outside, "project"));
  cpSync(DEMO_SESSION, path.join(outside, "project", path.basename(DEMO_SESSION)));
  writeFileSync(path.join(outside, "project", "notes.json"), JSON.stringify([{ role: "user", content: `project ${marker}` }]));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((sync) => sync.close()));
  home.remove();
  rmSync(outside, { recursive: true, force: true });
  restoreServerEnv();
  await forgetSyncedImports();
});

/** A sync whose importer is the server's own (confined to the folder it is given) and records what it is asked to read. */
function following(extra: Partial<SourceSyncOptions> = {}) {
  const read: string[] = [];
  const sync = createSourceSync({
    log: () => undefined,
    importFile: (file, within) => (read.push(file), importPath(file, file, undefined, { follow: true, within })),
    ...extra,
  });
  open.push(sync);
  return { sync, read };
}

/** Whether the marker reached the database anywhere a transcript's text goes. */
async function markerStored(): Promise<boolean> {
  const client = await db();
  const [turns, threads, failures] = await Promise.all([
    client.turn.count({ where: { content: { contains: marker } } }),
    client.thread.count({ where: { title: { contains: marker } } }),
    client.sourceFile.count({ where: { failure: { contains: marker } } }),
  ]);
  return turns + threads + failures > 0;
}

const claudeThreads = async () => (await db()).thread.count({ where: { source: "import:claude-code" } });

/** The links the hostile probe used, in `folder`: a file, /proc/self/environ and a project folder out of it. */
function hostileLinks(folder: string): string[] {
  const links = [path.join(folder, "leak.json"), path.join(folder, "-elsewhere")];
  symlinkSync(path.join(outside, "secret.json"), links[0]!);
  symlinkSync(path.join(outside, "project"), links[1]!);
  if (existsSync(PROC_ENVIRON)) {
    links.push(path.join(folder, "environ.jsonl"));
    symlinkSync(PROC_ENVIRON, links[2]!);
  }
  return links.sort();
}

describe("followed folders stay inside", () => {
  it("a full sync opens nothing through a link out of the folder and lists each as skipped; links inside import once", async () => {
    const folder = home.claudeProjects;
    mkdirSync(path.join(folder, "-path-to-Demo"));
    const session = path.join(folder, "-path-to-Demo", path.basename(DEMO_SESSION));
    cpSync(DEMO_SESSION, session);
    // Inside links: a folder and a file that lead to places inside.
    symlinkSync(path.join(folder, "-path-to-Demo"), path.join(folder, "-zz-alias"));
    symlinkSync(session, path.join(folder, "same-session.jsonl"));
    const links = hostileLinks(folder);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const { sync, read } = following();

    const status = (await sync.sync()).folders[0]!;
    expect(status.skippedEntries).toEqual(links.map((file) => ({ file, reason: OUTSIDE })));
    expect(status).toMatchObject({ state: "found", skipped: links.length, failed: 0, failures: [] });
    for (const link of links)
      expect(
        read.some((file) => file.startsWith(link)),
        `${link} read`,
      ).toBe(false);
    expect(read.some((file) => file.includes(outside))).toBe(false);
    expect(await markerStored()).toBe(false);

    // The folder is walked once (through -path-to-Demo, first by name), the file link is the same content: one session's threads.
    expect(read.sort()).toEqual([session, path.join(folder, "same-session.jsonl")]);
    const threads = await claudeThreads();
    expect(threads).toBeGreaterThan(0);
    expect((await importPath(DEMO_SESSION)).status).toBe("unchanged");
    expect(await claudeThreads()).toBe(threads);

    // Synced again: still skipped, still unread.
    const again = (await sync.sync()).folders[0]!;
    expect(again).toMatchObject({ skipped: links.length, failed: 0 });
    expect(read).toHaveLength(2);
  });

  it("a followed folder that is itself a link is followed, its real place the boundary", async () => {
    const real = path.join(home.home, "real-projects");
    mkdirSync(path.join(real, "-path-to-Demo"), { recursive: true });
    cpSync(DEMO_SESSION, path.join(real, "-path-to-Demo", path.basename(DEMO_SESSION)));
    // A link inside the real folder, written relative to it: inside, so followed.
    symlinkSync("-path-to-Demo", path.join(real, "-demo-again"));
    symlinkSync(path.join(outside, "secret.json"), path.join(real, "leak.json"));
    const followedLink = path.join(home.home, "projects-link");
    symlinkSync(real, followedLink);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: followedLink });
    const { sync, read } = following();

    const status = (await sync.sync()).folders[0]!;
    expect(status).toMatchObject({ path: followedLink, state: "found", filesSeen: 1, imported: 1, failed: 0, skipped: 1 });
    expect(status.skippedEntries).toEqual([{ file: path.join(followedLink, "leak.json"), reason: OUTSIDE }]);
    expect(read).toEqual([path.join(followedLink, "-demo-again", path.basename(DEMO_SESSION))]);
    expect(await claudeThreads()).toBeGreaterThan(0);
    expect(await markerStored()).toBe(false);
  });

  it("a link swapped in after the walk is not opened: the importer refuses it, and it is listed as skipped", async () => {
    const folder = home.claudeProjects;
    const project = path.join(folder, "-path-to-Demo");
    mkdirSync(project);
    const session = path.join(project, "notes.json");
    writeFileSync(session, "[]");
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const { sync } = following({
      importFile: async (file, within) => {
        // Between the walk (and the sync's own look) and the open, the file becomes a link out.
        rmSync(file);
        symlinkSync(path.join(outside, "secret.json"), file);
        return importPath(file, file, undefined, { follow: true, within });
      },
    });
    const status = (await sync.sync()).folders[0]!;
    expect(status).toMatchObject({ skipped: 1, failed: 0, skippedEntries: [{ file: session, reason: OUTSIDE }] });
    expect(await markerStored()).toBe(false);
  });

  it("a folder on the way swapped for a link out after the walk is not opened either", async () => {
    const folder = home.claudeProjects;
    const project = path.join(folder, "-path-to-Demo");
    mkdirSync(project);
    const session = path.join(project, "notes.json");
    writeFileSync(session, "[]");
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const { sync } = following({
      importFile: async (file, within) => {
        renameSync(project, path.join(folder, "moved-away"));
        symlinkSync(path.join(outside, "project"), project);
        return importPath(file, file, undefined, { follow: true, within });
      },
    });
    const status = (await sync.sync()).folders[0]!;
    expect(status).toMatchObject({ failed: 0, skippedEntries: [{ file: session, reason: OUTSIDE }] });
    expect(await markerStored()).toBe(false);
  });

  it("a named pipe with a transcript's name, inside or reached by a link, is skipped without blocking the sync", async () => {
    const folder = home.claudeProjects;
    execFileSync("mkfifo", [path.join(folder, "pipe.jsonl")]);
    execFileSync("mkfifo", [path.join(outside, "pipe")]);
    symlinkSync(path.join(outside, "pipe"), path.join(folder, "outside-pipe.jsonl"));
    cpSync(DEMO_SESSION, path.join(folder, path.basename(DEMO_SESSION)));
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
    const { sync, read } = following();
    const status = (await sync.sync()).folders[0]!;
    expect(status).toMatchObject({ filesSeen: 1, imported: 1, failed: 0, skipped: 2 });
    expect(status.skippedEntries).toEqual([
      { file: path.join(folder, "outside-pipe.jsonl"), reason: OUTSIDE },
      { file: path.join(folder, "pipe.jsonl"), reason: "a named pipe, not a regular file" },
    ]);
    expect(read).toEqual([path.join(folder, path.basename(DEMO_SESSION))]);
  });

  it("OpenCode: a part file linked out is left out unread, named with the reason; a database whose log leads out is not opened", async () => {
    const data = path.join(home.home, ".local", "share", "opencode");
    const { doc } = realOpenCodeExports().find(({ doc }) => doc.messages.some((m) => m.parts.some((p) => p.type === "text")))!;
    const [sessionFile] = writeStorageTree(data, [doc]);
    const message = doc.messages.find((m) => m.parts.some((p) => p.type === "text"))!;
    const part = message.parts.find((p) => p.type === "text");
    const partFile = path.join(data, "storage", "part", message.info.id, `${part.id}.json`);
    writeFileSync(path.join(outside, "part.json"), JSON.stringify({ ...part, text: `part ${marker}` }));
    rmSync(partFile);
    symlinkSync(path.join(outside, "part.json"), partFile);
    const report = await importPath(sessionFile!, sessionFile, undefined, { within: realpathSync(data) });
    expect(report).toMatchObject({ status: "imported", skipped: [{ path: partFile, reason: OUTSIDE }] });
    expect(await markerStored()).toBe(false);

    const database = path.join(data, "opencode.db");
    writeOpenCodeDatabase(database, [doc]).close();
    symlinkSync(path.join(outside, "secret.json"), `${database}-wal`);
    rmSync(path.join(data, "storage"), { recursive: true });
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: data });
    const { sync, read } = following();
    const status = (await sync.sync()).folders[0]!;
    expect(status).toMatchObject({ failed: 0, skipped: 1, skippedEntries: [{ file: database, reason: OUTSIDE }] });
    expect(read).toEqual([database]); // looked at, refused before SQLite opened it
  });

  describe.each([
    ["events", { watch: true }],
    ["polling", { watch: true, poll: () => true, pollMs: 100 }],
  ] as const)("while following (%s)", (mode, options) => {
    it("links out made after the sync are listed as skipped, never read, and a folder reached through one is not followed", async () => {
      const folder = home.claudeProjects;
      setServerEnv({ HOME: home.home, THREADLINE_SOURCES: folder });
      const { sync, read } = following(options);
      expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching", watchMode: mode, filesSeen: 0 });

      const links = hostileLinks(folder);
      await expect.poll(() => sync.status().folders[0]?.skippedEntries, SOON).toEqual(links.map((file) => ({ file, reason: OUTSIDE })));
      // A session written inside afterwards is imported: what came before it has been looked at.
      mkdirSync(path.join(folder, "-path-to-Demo"));
      const inside = path.join(folder, "-path-to-Demo", path.basename(DEMO_SESSION));
      cpSync(DEMO_SESSION, inside);
      await expect
        .poll(() => sync.status().folders[0], SOON)
        .toMatchObject({ filesSeen: 1, imported: 1, skipped: links.length, failed: 0 });

      // A session written in the outside folder, through which a link leads: not followed there.
      cpSync(SPOTTER_SESSION, path.join(outside, "project", path.basename(SPOTTER_SESSION)));
      writeFileSync(path.join(outside, "project", "later.json"), JSON.stringify([{ role: "user", content: `later ${marker}` }]));
      // A second inside session, written after it: once it is in, the outside one would have been too.
      cpSync(SPOTTER_SESSION, path.join(folder, "-path-to-Demo", "55604662-0000-4331-851a-ec234028f8ca.jsonl"));
      await expect.poll(() => sync.status().folders[0]?.filesSeen, SOON).toBe(2);
      expect(read.filter((file) => !file.startsWith(path.join(folder, "-path-to-Demo")))).toEqual([]);
      expect(await markerStored()).toBe(false);

      // The links go away: so do their lines.
      rmSync(path.join(folder, "leak.json"));
      rmSync(path.join(folder, "-elsewhere"));
      await expect.poll(() => sync.status().folders[0]?.skipped, SOON).toBe(links.length - 2);
    });
  });
});
