/**
 * Files read ahead on the parse worker (parse-pool.ts, from the bundle the integration tests build
 * first, as `npm start` does): a Claude Code session that is not live comes back with the rows its
 * import stores, made as this thread makes them; anything else comes back as bytes, or not at all.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serverSettings } from "@/lib/env";
import { writeClaudeCodeFolder } from "@/lib/testing/claude-code-folder";
import { prepareSession } from "./claude-code-lines";
import { sourceBytes, type SourceBytes } from "./file-lines";
import { parseWorkerAvailable, parseWorkerStats } from "./parse-pool";
import { ReadAhead } from "./read-ahead";

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "threadline-read-ahead-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bytesOf(source: SourceBytes): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.chunks()) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}

describe("ReadAhead on the parse worker", () => {
  it("is used: its bundle is built and this machine has a core for it", () => {
    expect(parseWorkerAvailable()).toBe(true);
  });

  it("prepares a session that is not live as this thread would, and hands the bytes of a live one over", async () => {
    const folder = writeClaudeCodeFolder(path.join(dir, "projects"), 3, { days: 3, endAt: new Date("2026-10-01T00:00:00Z") });
    const [old, live] = folder.files;
    const now = new Date();
    utimesSync(live!, now, now);
    const limits = serverSettings().importLimits;
    const before = { ...parseWorkerStats };
    const ahead = new ReadAhead(dir, { worker: true });
    ahead.start(old!, 1);
    ahead.start(live!, 1);

    const prepared = await ahead.take(old!);
    const here = await prepareSession(await sourceBytes(old!, dir), old!, limits, Date.now());
    expect(here!.items.length).toBeGreaterThan(5);
    expect(prepared).toEqual({ prepared: here });

    const read = await ahead.take(live!);
    expect(read && "source" in read ? await bytesOf(read.source) : null).toBe(readFileSync(live!, "utf8"));
    expect(read && "source" in read ? read.source.opened?.mtimeMs : null).toBe(statSync(live!).mtimeMs);
    expect(parseWorkerStats.prepared - before.prepared).toBe(1);
    expect(parseWorkerStats.read - before.read).toBe(1);
  });

  it("leaves to this thread what it cannot read: a link out of the folder, a file gone", async () => {
    const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), "threadline-outside-")));
    writeFileSync(path.join(outside, "secret.jsonl"), "{}\n");
    const link = path.join(dir, "link.jsonl");
    symlinkSync(path.join(outside, "secret.jsonl"), link);
    const ahead = new ReadAhead(dir, { worker: true });
    ahead.start(link, 3);
    ahead.start(path.join(dir, "gone.jsonl"), 10);
    expect(await ahead.take(link)).toBeNull();
    expect(await ahead.take(path.join(dir, "gone.jsonl"))).toBeNull();
    rmSync(outside, { recursive: true });
  });

  it("reads up to 16 files ahead, and a file over the 16 MB they may hold only when none is", () => {
    const ahead = new ReadAhead(dir, { worker: true });
    for (let i = 0; i < 16; i++) {
      expect(ahead.wants(1024)).toBe(true);
      ahead.start(path.join(dir, `gone-${i}.jsonl`), 1024);
    }
    expect(ahead.wants(1)).toBe(false);
    const one = new ReadAhead(dir, { worker: true });
    expect(one.wants(20 * 1024 * 1024)).toBe(true);
    one.start(path.join(dir, "large.jsonl"), 20 * 1024 * 1024);
    expect(one.wants(1)).toBe(false);
  });
});
