import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFileRoots, readFromRoots } from "./file-source";

const base = mkdtempSync(path.join(tmpdir(), "threadline-files-"));
const root = path.join(base, "project");
const outside = path.join(base, "secret");
mkdirSync(path.join(root, "src"), { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(path.join(root, "src", "main.py"), "print('hi')\n");
writeFileSync(path.join(outside, "key.txt"), "TOP SECRET");
symlinkSync(outside, path.join(root, "escape"));
symlinkSync(path.join(outside, "key.txt"), path.join(root, "src", "link.txt"));

describe("readFromRoots", () => {
  it("reads files under an allowed root, by relative or absolute path", async () => {
    expect(await readFromRoots("src/main.py", [root])).toEqual({ ok: true, content: "print('hi')\n" });
    expect(await readFromRoots(path.join(root, "src/main.py"), [root])).toEqual({ ok: true, content: "print('hi')\n" });
  });

  it.each([
    ["/etc/passwd"],
    ["../../secret/key.txt"],
    ["../secret/key.txt"],
    ["src/../../secret/key.txt"],
    [path.join(outside, "key.txt")],
  ])("refuses %s, which is outside the roots", async (filePath) => {
    const result = await readFromRoots(filePath, [root]);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain("TOP SECRET");
  });

  it("refuses symbolic links that lead outside the root", async () => {
    for (const filePath of ["escape/key.txt", "src/link.txt"]) {
      expect(await readFromRoots(filePath, [root])).toEqual({ ok: false, reason: "outside the allowed roots (through a symbolic link)" });
    }
  });

  it("reads nothing when no roots are configured", async () => {
    const result = await readFromRoots(path.join(root, "src/main.py"), []);
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining("THREADLINE_FILE_ROOTS") });
  });

  it("says when a file is missing or not a file", async () => {
    expect(await readFromRoots("src/missing.py", [root])).toEqual({ ok: false, reason: "file not found under the allowed roots" });
    expect(await readFromRoots("src", [root])).toEqual({ ok: false, reason: "not a regular file (a directory)" });
    expect(await readFromRoots("src/ma\0in.py", [root])).toEqual({ ok: false, reason: "invalid path" });
  });
});

describe("special files under a root", () => {
  // Opening a named pipe for reading waits for a writer: before the fix this test hung until its timeout.
  it("lists a named pipe, a link to one and a socket as skipped, without opening them", async () => {
    const pipe = path.join(root, "src", "pipe");
    execFileSync("mkfifo", [pipe]);
    symlinkSync(pipe, path.join(root, "src", "pipe-link"));
    expect(await readFromRoots("src/pipe", [root])).toEqual({ ok: false, reason: "not a regular file (a named pipe)" });
    expect(await readFromRoots("src/pipe-link", [root])).toEqual({ ok: false, reason: "not a regular file (a named pipe)" });

    const socketPath = path.join(root, "src", "agent.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect(await readFromRoots("src/agent.sock", [root])).toEqual({ ok: false, reason: "not a regular file (a socket)" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses a device even when the root holds it", async () => {
    expect(await readFromRoots("/dev/zero", ["/dev"])).toEqual({ ok: false, reason: "not a regular file (a device)" });
  });
});

describe("parseFileRoots", () => {
  it("keeps absolute directories only", () => {
    expect(parseFileRoots(` /srv/a :relative:: /srv/b/../c `)).toEqual(["/srv/a", "/srv/c"]);
    expect(parseFileRoots(undefined)).toEqual([]);
  });
});
