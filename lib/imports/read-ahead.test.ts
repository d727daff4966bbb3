import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RefusedPathError } from "@/lib/files/inside";
import type { SourceBytes } from "./file-lines";
import { ReadAhead, type ReadAheadFile } from "./read-ahead";

// The parse worker's side is read-ahead.integration.test.ts (it needs the worker's bundle).
describe("ReadAhead on the importing thread", () => {
  const folder = () => realpathSync(mkdtempSync(join(tmpdir(), "read-ahead-")));
  const textOf = async (file: ReadAheadFile) => {
    const chunks: Buffer[] = [];
    for await (const chunk of (file as { source: SourceBytes }).source.chunks()) chunks.push(chunk);
    return Buffer.concat(chunks).toString();
  };

  it("hands over the bytes the file had when it was read, once", async () => {
    const root = folder();
    const path = join(root, "a.jsonl");
    writeFileSync(path, "first\n");
    const ahead = new ReadAhead(root, { worker: false });
    ahead.start(path, 6);
    const read = ahead.take(path)!;
    await read;
    writeFileSync(path, "changed since\n");
    expect(await textOf(await read)).toBe("first\n");
    expect(ahead.take(path)).toBeUndefined();
    expect(ahead.size).toBe(0);
    rmSync(root, { recursive: true });
  });

  it("keeps a failed read for the import that takes it, and a read never taken fails nothing", async () => {
    const root = folder();
    const outside = folder();
    writeFileSync(join(outside, "secret.jsonl"), "{}\n");
    symlinkSync(join(outside, "secret.jsonl"), join(root, "link.jsonl"));
    const ahead = new ReadAhead(root, { worker: false });
    ahead.start(join(root, "gone.jsonl"), 10);
    ahead.start(join(root, "link.jsonl"), 3);
    // Vitest fails the run on an unhandled rejection: the read of gone.jsonl is never taken.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(ahead.take(join(root, "link.jsonl"))).rejects.toBeInstanceOf(RefusedPathError);
    expect(ahead.size).toBe(1);
    rmSync(root, { recursive: true });
    rmSync(outside, { recursive: true });
  });
});
