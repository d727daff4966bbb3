/**
 * Opening files only inside a folder (lib/files/inside.ts), on real temporary folders: links that
 * stay inside are followed, links out and special files are refused without being read, and a
 * folder on the way swapped for a link out while files are opened never lets one through.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { openForReading, readWholeInside, realInside, RefusedPathError } from "./inside";

/** The whole of a file, read as openForReading opens it (openInside, with `within`). */
async function readWhole(p: string, within?: string): Promise<Buffer> {
  const handle = await openForReading(p, within);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "threadline-inside-")));
const root = path.join(base, "followed");
const outside = path.join(base, "outside");
mkdirSync(path.join(root, "project"), { recursive: true });
mkdirSync(outside);
writeFileSync(path.join(root, "project", "session.jsonl"), "inside\n");
writeFileSync(path.join(outside, "session.jsonl"), "OUTSIDE SECRET\n");
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A link made once: the readers' cases share the folder. */
function linkOnce(target: string, at: string): void {
  if (!lstatOrNull(at)) symlinkSync(target, at);
}

function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

async function refusal(run: () => Promise<unknown>): Promise<{ kind: string; reason: string } | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof RefusedPathError) return { kind: error.kind, reason: error.reason };
    throw error;
  }
}

/** The whole of a file inside `within`, read in place (blocking calls). */
async function readInPlace(p: string, within: string): Promise<Buffer> {
  const whole = await readWholeInside(p, within, 1024 * 1024);
  if (!whole) throw new Error(`${p} is larger than a megabyte`);
  return whole.bytes;
}

// The same checks through the thread pool and in place: each reader must pass every case.
describe.each([
  ["openInside", readWhole],
  ["readWholeInside", readInPlace],
] as const)("%s", (_name, readInside) => {
  it("opens a file inside, directly or through a link that stays inside", async () => {
    if (!existsSync(path.join(root, "alias"))) symlinkSync(path.join(root, "project"), path.join(root, "alias"));
    if (!existsSync(path.join(root, "same.jsonl"))) symlinkSync("project/session.jsonl", path.join(root, "same.jsonl"));
    for (const file of ["project/session.jsonl", "alias/session.jsonl", "same.jsonl"]) {
      expect((await readInside(path.join(root, file), root)).toString()).toBe("inside\n");
    }
    expect(await realInside(path.join(root, "alias", "session.jsonl"), root)).toBe(path.join(root, "project", "session.jsonl"));
  });

  it("refuses a file or folder link out of the folder, and /proc/self/environ, without reading them", async () => {
    linkOnce(path.join(outside, "session.jsonl"), path.join(root, "leak.jsonl"));
    linkOnce(outside, path.join(root, "elsewhere"));
    const links = [path.join(root, "leak.jsonl"), path.join(root, "elsewhere", "session.jsonl")];
    if (existsSync("/proc/self/environ")) {
      linkOnce("/proc/self/environ", path.join(root, "environ.jsonl"));
      links.push(path.join(root, "environ.jsonl"));
    }
    for (const link of links) {
      expect(await refusal(() => readInside(link, root))).toEqual({
        kind: "outside",
        reason: "a symbolic link to a place outside the followed folder",
      });
    }
    // Without a folder to stay in (a file a person named), a link is read as it is.
    expect((await readWhole(path.join(root, "leak.jsonl"))).toString()).toBe("OUTSIDE SECRET\n");
  });

  it("refuses a named pipe and a device without blocking", async () => {
    if (!existsSync(path.join(root, "pipe.jsonl"))) execFileSync("mkfifo", [path.join(root, "pipe.jsonl")]);
    expect(await refusal(() => readInside(path.join(root, "pipe.jsonl"), root))).toEqual({
      kind: "special",
      reason: "a named pipe, not a regular file",
    });
    expect(await refusal(() => readInside("/dev/zero", "/dev"))).toEqual({ kind: "special", reason: "a device, not a regular file" });
  });

  it("never opens a file out of the folder while a folder on the way is swapped for a link out", async () => {
    const swapped = path.join(root, `swapped-${_name}`);
    mkdirSync(swapped);
    writeFileSync(path.join(swapped, "session.jsonl"), "inside\n");
    const parked = path.join(root, `parked-${_name}`);
    const link = path.join(root, `link-out-${_name}`);
    symlinkSync(outside, link);
    // A thread of its own swaps the folder and the link at `swapped` as fast as it can.
    const worker = new Worker(
      `const { renameSync } = require("node:fs"); const { workerData: w, parentPort } = require("node:worker_threads");
       let stop = false; parentPort.on("message", () => (stop = true));
       (function loop() { for (let i = 0; i < 200; i++) { try { renameSync(w.swapped, w.parked); renameSync(w.link, w.swapped); renameSync(w.swapped, w.link); renameSync(w.parked, w.swapped); } catch {} } if (!stop) setImmediate(loop); else parentPort.postMessage("done"); })();`,
      { eval: true, workerData: { swapped, parked, link } },
    );
    const seen = { inside: 0, refused: 0, gone: 0 };
    try {
      for (let i = 0; i < 3000; i++) {
        try {
          const text = (await readInside(path.join(swapped, "session.jsonl"), root)).toString();
          expect(text).toBe("inside\n");
          seen.inside += 1;
        } catch (error) {
          if (error instanceof RefusedPathError) seen.refused += 1;
          else if ((error as NodeJS.ErrnoException).code === "ENOENT") seen.gone += 1;
          else throw error;
        }
      }
    } finally {
      const done = new Promise((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      await done;
      await worker.terminate();
    }
    // The race was run: some opens found the link, some the folder.
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.inside).toBeGreaterThan(0);
    if (!existsSync(swapped)) renameSync(parked, swapped);
  });
});
