/**
 * A followed Claude Code session imported as it grows, reading only what was appended each time,
 * must end up stored exactly as the finished file imported whole: the same threads, turns (ids are
 * derived from everything stored of a turn), token counts, compaction runs and file record. Real
 * sessions from fixtures/real and a generated one, cut at line ends and inside lines, on real
 * databases.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { writeClaudeCodeSession } from "@/lib/testing/claude-code-session";
import { restoreServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { CLAUDE_CODE_FIXTURES } from "@/lib/testing/sources-home";
import { followedSessionStats, forgetFollowedSessions, resumeCounts } from "./claude-code-session";
import { importPath } from "./import-file";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-follow-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  forgetFollowedSessions();
  restoreServerEnv();
});

/** Every real Claude Code session and sub-agent file of the fixtures. */
function fixtureSessions(dir = CLAUDE_CODE_FIXTURES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? fixtureSessions(full) : entry.name.endsWith(".jsonl") ? [full] : [];
  });
}

/** What a database holds of imported sessions, without what differs by when it was written (seq, importedAt). */
async function storedState() {
  const client = await db();
  const threads = await client.thread.findMany({ orderBy: { id: "asc" } });
  const turns = await client.turn.findMany({ orderBy: [{ threadId: "asc" }, { index: "asc" }], include: { tokenCounts: true } });
  const files = await client.importedFile.findMany({ orderBy: { sha256: "asc" } });
  const runs = await client.compactionRun.findMany({ orderBy: { id: "asc" } });
  return {
    threads,
    turns: turns.map(({ seq: _seq, tokenCounts, ...turn }) => ({
      ...turn,
      counts: tokenCounts.map(({ turnSeq: _turnSeq, ...count }) => count),
    })),
    files: files.map(({ importedAt: _at, ...file }) => file),
    runs: runs.map(({ importedAt: _at, ...run }) => run),
  };
}

/**
 * Grown against whole: every import records its file's content, so the grown database holds a
 * record of each version; the finished file's must be the one the whole import made.
 */
function expectSameAsWhole(grown: Awaited<ReturnType<typeof storedState>>, whole: Awaited<ReturnType<typeof storedState>>): void {
  const { files, ...rest } = grown;
  const { files: wholeFiles, ...wholeRest } = whole;
  expect(rest).toEqual(wholeRest);
  expect(wholeFiles).toHaveLength(1);
  expect(files.filter((file) => file.sha256 === wholeFiles[0]!.sha256)).toEqual(wholeFiles);
}

/** Byte positions to cut `bytes` at, after its first line: inside lines and at line ends, spread over the file. */
function cutPoints(bytes: Buffer, pieces: number): number[] {
  const cuts: number[] = [];
  const firstLine = bytes.indexOf(0x0a) + 1;
  for (let i = 1; i < pieces; i++) {
    const at = Math.max(firstLine, Math.floor((bytes.length * i) / pieces));
    // Every other cut at the next line end, the rest inside a line.
    const lineEnd = bytes.indexOf(0x0a, at);
    cuts.push(i % 2 === 0 && lineEnd !== -1 ? lineEnd + 1 : at);
  }
  return [...new Set(cuts)].sort((a, b) => a - b);
}

/** Writes `bytes` to `file` piece by piece, importing after each as a followed file, then the rest. */
async function importGrowing(file: string, bytes: Buffer, cuts: number[]): Promise<void> {
  let written = 0;
  writeFileSync(file, "");
  for (const cut of [...cuts, bytes.length]) {
    appendFileSync(file, bytes.subarray(written, cut));
    written = cut;
    const report = await importPath(file, file, undefined, { follow: true });
    expect(report.status, report.error).not.toBe("failed");
  }
}

async function importWhole(file: string, bytes: Buffer): Promise<void> {
  writeFileSync(file, bytes);
  const report = await importPath(file);
  expect(report.status, report.error).not.toBe("failed");
}

/** `name` under a fresh folder, so a sub-agent file keeps its `<session>/subagents/` path. */
function placeLike(source: string, tag: string): string {
  const relative = path.relative(CLAUDE_CODE_FIXTURES, source);
  const file = path.join(work, tag, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

describe("a followed Claude Code session read from where the last import stopped", () => {
  it.each(fixtureSessions().map((file) => [path.relative(CLAUDE_CODE_FIXTURES, file), file]))(
    "%s imported as it grows is stored as the whole file imported at once",
    async (_name, source) => {
      const bytes = readFileSync(source);
      const before = resumeCounts();
      await switchToFreshDatabase();
      const growing = placeLike(source, "growing");
      await importGrowing(growing, bytes, cutPoints(bytes, 7));
      const grown = await storedState();
      const counts = resumeCounts();

      await switchToFreshDatabase();
      forgetFollowedSessions();
      // The same path: thread keys and the file record name it.
      await importWhole(growing, bytes);
      expectSameAsWhole(grown, await storedState());
      // Some imports went on from where the last stopped (a rewind or a cut first line makes the
      // rest read whole, which must come out the same).
      expect(counts.resumed + counts.readWhole - before.resumed - before.readWhole).toBeGreaterThan(0);
    },
  );

  it("reads only the appended lines of a generated 2 MB session, and stores what a whole import stores", async () => {
    const source = path.join(work, "generated-source.jsonl");
    writeClaudeCodeSession(source, 2_000_000, 11);
    const bytes = readFileSync(source);
    const cuts = cutPoints(bytes, 12);
    const before = resumeCounts();
    await switchToFreshDatabase();
    const file = path.join(work, "gen", "0b6f1a52-9a43-4a8e-9a64-1f6b0c5d2e71.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    await importGrowing(file, bytes, cuts);
    const after = resumeCounts();
    // The first import reads the file whole; every later one only what was appended.
    expect(after.resumed - before.resumed).toBe(cuts.length);
    expect(after.readWhole - before.readWhole).toBe(0);
    // Each import reads from the end of the last complete line the one before took, to the end.
    const ends = [...cuts, bytes.length];
    const expectedRead = ends.slice(1).reduce((sum, end, i) => sum + end - (bytes.lastIndexOf(0x0a, ends[i]! - 1) + 1), 0);
    expect(after.bytesRead - before.bytesRead).toBe(expectedRead);
    const grown = await storedState();
    expect(grown.turns.length).toBeGreaterThan(300);

    await switchToFreshDatabase();
    forgetFollowedSessions();
    await importWhole(file, bytes);
    expectSameAsWhole(grown, await storedState());
  });

  it("reads a file whole again when it was rewritten, truncated or replaced, and stores what is in it now", async () => {
    await switchToFreshDatabase();
    const source = path.join(work, "rewrite-source.jsonl");
    writeClaudeCodeSession(source, 200_000, 5);
    const bytes = readFileSync(source);
    const file = path.join(work, "rewrite", "7d7c3f7e-2b8e-4d0a-9f00-3a1d2c4b5e6f.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    const half = bytes.indexOf(0x0a, bytes.length >> 1) + 1;
    writeFileSync(file, bytes.subarray(0, half));
    await importPath(file, file, undefined, { follow: true });
    expect(followedSessionStats().sessions).toBe(1);

    // The same size and more, but an earlier line changed: not an append.
    const edited = Buffer.from(bytes);
    edited.write("Exchange 0: EDITED", edited.indexOf("Exchange 0: "), "utf8");
    writeFileSync(file, edited);
    const whole = resumeCounts().readWhole;
    let report = await importPath(file, file, undefined, { follow: true });
    expect(resumeCounts().readWhole).toBe(whole + 1);
    expect(report.threadResults[0]).toMatchObject({ change: "rewritten", fromTurn: 1 });

    // Shorter than what was taken: read whole, truncated.
    truncateSync(file, half);
    report = await importPath(file, file, undefined, { follow: true });
    expect(resumeCounts().readWhole).toBe(whole + 2);
    expect(report.threadResults[0]!.change).toBe("truncated");

    // Replaced by another file (a new inode) that starts as the truncated one did: read whole
    // (the first turn is the original one again).
    const replacement = `${file}.new`;
    writeFileSync(replacement, bytes);
    rmSync(file);
    writeFileSync(file, readFileSync(replacement));
    expect(statSync(file).size).toBe(bytes.length);
    report = await importPath(file, file, undefined, { follow: true });
    expect(resumeCounts().readWhole).toBe(whole + 3);
    expect(report.threadResults[0]).toMatchObject({ change: "rewritten", fromTurn: 1 });

    const stored = await storedState();
    await switchToFreshDatabase();
    forgetFollowedSessions();
    await importWhole(file, bytes);
    expect(stored.turns).toEqual((await storedState()).turns);
  });

  it("reads the file whole when what is stored is not what the last import left (the thread was purged meanwhile)", async () => {
    await switchToFreshDatabase();
    const source = path.join(work, "purge-source.jsonl");
    writeClaudeCodeSession(source, 100_000, 3);
    const bytes = readFileSync(source);
    const file = path.join(work, "purge", "1a2b3c4d-1111-4222-8333-444455556666.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    const half = bytes.indexOf(0x0a, bytes.length >> 1) + 1;
    writeFileSync(file, bytes.subarray(0, half));
    const first = await importPath(file, file, undefined, { follow: true });
    await (await db()).thread.deleteMany({ where: { id: { in: first.threadIds } } });
    appendFileSync(file, bytes.subarray(half));
    const before = resumeCounts();
    const report = await importPath(file, file, undefined, { follow: true });
    expect(resumeCounts().readWhole).toBe(before.readWhole + 1);
    expect(report.threads.created).toBe(1);
    const stored = await storedState();
    await switchToFreshDatabase();
    forgetFollowedSessions();
    await importWhole(file, bytes);
    expect(stored.turns).toEqual((await storedState()).turns);
  });

  it("keeps no state for a session that is not being written (not followed, or last written over an hour ago)", async () => {
    await switchToFreshDatabase();
    const file = path.join(work, "old", "2b3c4d5e-1111-4222-8333-444455556666.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    writeClaudeCodeSession(file, 50_000, 2);
    await importPath(file);
    expect(followedSessionStats().sessions).toBe(0);
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const { utimesSync } = await import("node:fs");
    utimesSync(file, old, old);
    await switchToFreshDatabase();
    await importPath(file, file, undefined, { follow: true });
    expect(followedSessionStats().sessions).toBe(0);
  });
});
