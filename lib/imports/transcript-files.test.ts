/**
 * The folder walk (`npm run import`, followed folders) on real temporary folders: it stays inside
 * the folder it walks, whatever symbolic links say, and says what it left out. No database.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transcriptFiles, type WalkOptions, type WalkProblem } from "./transcript-files";

const OUTSIDE = "a symbolic link to a place outside the followed folder";
let base: string;
let folder: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "threadline-walk-")));
  folder = path.join(base, "projects");
  outside = path.join(base, "elsewhere");
  mkdirSync(path.join(folder, "a"), { recursive: true });
  mkdirSync(path.join(outside, "project"), { recursive: true });
  writeFileSync(path.join(folder, "a", "one.jsonl"), "{}\n");
  writeFileSync(path.join(outside, "secret.jsonl"), "{}\n");
  writeFileSync(path.join(outside, "project", "two.jsonl"), "{}\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function walk(entry: string, options: WalkOptions = {}): Promise<{ files: string[]; skipped: WalkProblem[] }> {
  const files: string[] = [];
  const skipped: WalkProblem[] = [];
  for await (const file of transcriptFiles(entry, { ...options, onSkip: (skip) => skipped.push(skip) }))
    files.push(path.relative(base, file.path));
  return { files, skipped: skipped.map((s) => ({ ...s, path: path.relative(base, s.path) })) };
}

describe("transcriptFiles", () => {
  it("walks links that stay inside (each folder once), and leaves links out unopened, each said", async () => {
    symlinkSync(path.join(folder, "a"), path.join(folder, "b-alias"));
    symlinkSync("a/one.jsonl", path.join(folder, "same.jsonl"));
    symlinkSync(path.join(outside, "secret.jsonl"), path.join(folder, "leak.jsonl"));
    symlinkSync(path.join(outside, "project"), path.join(folder, "c-project"));
    // A link out that is neither a folder nor named as a transcript is nobody's business.
    symlinkSync("/bin/sh", path.join(folder, "python"));
    expect(await walk(folder)).toEqual({
      files: ["projects/a/one.jsonl", "projects/same.jsonl"],
      skipped: [
        { path: "projects/c-project", reason: OUTSIDE },
        { path: "projects/leak.jsonl", reason: OUTSIDE },
      ],
    });
  });

  it("a folder named through a link is walked at its real place; a file named directly is read, wherever it leads", async () => {
    symlinkSync(folder, path.join(base, "projects-link"));
    symlinkSync(path.join(outside, "secret.jsonl"), path.join(folder, "leak.jsonl"));
    expect(await walk(path.join(base, "projects-link"))).toEqual({
      files: ["projects-link/a/one.jsonl"],
      skipped: [{ path: "projects-link/leak.jsonl", reason: OUTSIDE }],
    });
    expect(await walk(path.join(folder, "leak.jsonl"))).toEqual({ files: ["projects/leak.jsonl"], skipped: [] });
  });

  it("with a folder to stay within, an entry that leads out of it is skipped itself", async () => {
    symlinkSync(path.join(outside, "project"), path.join(folder, "c-project"));
    const within = realpathSync(folder);
    expect(await walk(path.join(folder, "c-project"), { within })).toEqual({
      files: [],
      skipped: [{ path: "projects/c-project", reason: OUTSIDE }],
    });
    expect(await walk(path.join(folder, "a"), { within })).toEqual({ files: ["projects/a/one.jsonl"], skipped: [] });
  });

  it("says a named pipe with a transcript's name is skipped, and is not held up by it", async () => {
    execFileSync("mkfifo", [path.join(folder, "a", "pipe.jsonl")]);
    execFileSync("mkfifo", [path.join(folder, "a", "other-pipe")]);
    expect(await walk(folder)).toEqual({
      files: ["projects/a/one.jsonl"],
      skipped: [{ path: "projects/a/pipe.jsonl", reason: "a named pipe, not a regular file" }],
    });
  });

  it("lets the event loop in between its calls, at most a slice apart", async () => {
    for (let i = 0; i < 50; i++) writeFileSync(path.join(folder, "a", `s${String(i).padStart(2, "0")}.jsonl`), "{}\n");
    let turns = 0;
    let walking = true;
    const turn = () => {
      if (!walking) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    const { files } = await walk(folder, { sliceMs: 0 });
    walking = false;
    expect(files).toHaveLength(51);
    // A slice of 0 ms: a turn of the event loop before each file's stat.
    expect(turns).toBeGreaterThanOrEqual(51);
  });
});
