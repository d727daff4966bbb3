/**
 * The tree watch on real temporary folders: what it reports, and that it watches folders, not
 * files. No database. Waits are for events (expect.poll, generous bounds), never timed.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isTranscriptPath } from "@/lib/importers";
import { networkFileSystem } from "./follow";
import { watchTree, type TreeWatch } from "./watch";

let root: string;
let watch: TreeWatch | null;
let changes: string[];
let failures: string[];

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "threadline-watch-"));
  watch = null;
  changes = [];
  failures = [];
});
afterEach(() => {
  watch?.close();
  rmSync(root, { recursive: true, force: true });
});

async function start(): Promise<TreeWatch> {
  watch = await watchTree(root, { wanted: isTranscriptPath, onChange: (p) => changes.push(p), onFail: (reason) => failures.push(reason) });
  return watch;
}

/** inotify watches this process holds (Linux), or null elsewhere. */
function inotifyWatches(): number | null {
  try {
    let count = 0;
    for (const fd of readdirSync("/proc/self/fd")) {
      const target = (() => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return "";
        }
      })();
      if (target === "anon_inode:inotify")
        count += readFileSync(`/proc/self/fdinfo/${fd}`, "utf8")
          .split("\n")
          .filter((l) => l.startsWith("inotify wd")).length;
    }
    return count;
  } catch {
    return null;
  }
}

describe("watchTree", () => {
  it("watches each folder once, not each file, and leaves node_modules and .git out", async () => {
    for (let p = 0; p < 3; p++) {
      mkdirSync(path.join(root, `project-${p}`, "subagents"), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(path.join(root, `project-${p}`, `${f}.jsonl`), "{}\n");
    }
    mkdirSync(path.join(root, "node_modules", "x"), { recursive: true });
    mkdirSync(path.join(root, ".git", "objects"), { recursive: true });
    const before = inotifyWatches();
    const w = await start();
    // The root, 3 projects and their subagents folders: 7, for 60 files.
    expect(w.folders()).toBe(7);
    const after = inotifyWatches();
    if (before !== null && after !== null) expect(after - before).toBe(7);
  });

  it("reports a written transcript, ignores other files, and reports a new folder once it is watched, then what is written in it", async () => {
    mkdirSync(path.join(root, "project"));
    writeFileSync(path.join(root, "project", "a.jsonl"), "{}\n");
    await start();
    appendFileSync(path.join(root, "project", "a.jsonl"), "{}\n");
    await expect.poll(() => changes).toContain(path.join(root, "project", "a.jsonl"));

    changes.length = 0;
    for (let i = 0; i < 50; i++) appendFileSync(path.join(root, "project", "notes.txt"), "x");
    writeFileSync(path.join(root, "project", "history.jsonl"), "{}\n"); // a side file, not a transcript
    // A folder made after the start, with a session made at once and one later.
    const fresh = path.join(root, "project", "deep", "er");
    mkdirSync(fresh, { recursive: true });
    writeFileSync(path.join(fresh, "early.jsonl"), "{}\n");
    await expect.poll(() => changes.some((p) => p === path.join(root, "project", "deep") || p === fresh)).toBe(true);
    await expect.poll(() => watch!.folders()).toBe(4);
    writeFileSync(path.join(fresh, "later.jsonl"), "{}\n");
    await expect.poll(() => changes).toContain(path.join(fresh, "later.jsonl"));
    expect(changes.filter((p) => p.endsWith("notes.txt") || p.endsWith("history.jsonl"))).toEqual([]);
    expect(failures).toEqual([]);
  });

  it("reports a file replaced by a rename over it (an atomic rewrite), and a deleted file", async () => {
    const session = path.join(root, "session-1.json");
    writeFileSync(session, "{}");
    await start();
    writeFileSync(`${session}.tmp`, '{"messages":[]}');
    renameSync(`${session}.tmp`, session);
    await expect.poll(() => changes).toContain(session);
    changes.length = 0;
    rmSync(session);
    await expect.poll(() => changes).toContain(session);
  });

  it("drops the watches of a folder that is removed and reports it; the root going away ends the watch", async () => {
    mkdirSync(path.join(root, "a", "b"), { recursive: true });
    const w = await start();
    expect(w.folders()).toBe(3);
    rmSync(path.join(root, "a"), { recursive: true });
    await expect.poll(() => w.folders()).toBe(1);
    expect(changes).toContain(path.join(root, "a"));
    rmSync(root, { recursive: true });
    await expect.poll(() => failures).toHaveLength(1);
    expect(failures[0]).toMatch(/went away/);
    expect(w.folders()).toBe(0);
  });

  it("watches a folder reached through a link inside once, and none reached through a link out, then or later", async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "threadline-watch-outside-"));
    try {
      mkdirSync(path.join(root, "a"));
      mkdirSync(path.join(outside, "project"));
      symlinkSync(path.join(root, "a"), path.join(root, "b-alias"));
      symlinkSync(path.join(outside, "project"), path.join(root, "elsewhere"));
      const w = await start();
      expect(w.folders()).toBe(2); // the root and a
      // A link out made later is reported (the sync lists it as skipped), not watched.
      symlinkSync(outside, path.join(root, "later"));
      await expect.poll(() => changes).toContain(path.join(root, "later"));
      expect(w.folders()).toBe(2);
      writeFileSync(path.join(outside, "project", "s.jsonl"), "{}\n");
      writeFileSync(path.join(outside, "s.jsonl"), "{}\n");
      // Written after those: once it is heard, they would have been.
      writeFileSync(path.join(root, "a", "inside.jsonl"), "{}\n");
      await expect.poll(() => changes).toContain(path.join(root, "a", "inside.jsonl"));
      expect(changes.filter((p) => p.endsWith("s.jsonl"))).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("rejects a root that is not there", async () => {
    await expect(
      watchTree(path.join(root, "missing"), { wanted: isTranscriptPath, onChange: () => undefined, onFail: () => undefined }),
    ).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("knows a local folder is not on a network file system", async () => {
    expect(await networkFileSystem(root)).toBeNull();
  });
});
