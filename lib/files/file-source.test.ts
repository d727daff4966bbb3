import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
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
    expect(await readFromRoots("src", [root])).toEqual({ ok: false, reason: "not a regular file" });
    expect(await readFromRoots("src/ma\0in.py", [root])).toEqual({ ok: false, reason: "invalid path" });
  });
});

describe("parseFileRoots", () => {
  it("keeps absolute directories only", () => {
    expect(parseFileRoots(` /srv/a :relative:: /srv/b/../c `)).toEqual(["/srv/a", "/srv/c"]);
    expect(parseFileRoots(undefined)).toEqual([]);
  });
});
