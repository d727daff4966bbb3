/**
 * Lines and documents too large to read, on real databases with small limits (THREADLINE_MAX_LINE_MB,
 * THREADLINE_MAX_DOCUMENT_MB): a live Claude Code session whose last line grows past the limit, a
 * Codex rollout with a long line, documents over the limit, and what a followed folder shows of
 * them, across a restart. The 200 MB case, with memory and latency, is lib/sources/long-line.integration.test.ts.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { forgetSyncedImports, restoreServerEnv, rowCounts, setServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { imageBytes, writeLongLineSession } from "@/lib/testing/long-line-session";
import { insertMessage, realOpenCodeExports, writeOpenCodeDatabase, writeStorageTree } from "@/lib/testing/opencode-storage";
import { REAL_TRANSCRIPTS } from "@/lib/testing/real-transcripts";
import { countingSync } from "@/lib/testing/source-sync";
import { forgetFollowedSessions, resumeCounts } from "./claude-code-session";
import { importPath } from "./import-file";

const MB = 1024 * 1024;
const CODEX_ROLLOUT = path.join(
  REAL_TRANSCRIPTS,
  "codex/sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl",
);
const CHATGPT_EXPORT = path.join(REAL_TRANSCRIPTS, "chatgpt/conversations.json");

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-long-lines-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(async () => {
  forgetFollowedSessions();
  restoreServerEnv();
  await forgetSyncedImports();
});

/** The turns stored, by thread, without what differs by when they were written. */
async function storedTurns() {
  const turns = await (await db()).turn.findMany({ orderBy: [{ threadId: "asc" }, { index: "asc" }] });
  return turns.map(({ seq: _seq, ...turn }) => turn);
}

describe("a long line in a file imported", () => {
  it("a live session's last line past the limit: only its length is kept while it grows, only new bytes are read, and once it ends it is skipped as in a whole import", async () => {
    setServerEnv({ THREADLINE_MAX_LINE_MB: "1" });
    await switchToFreshDatabase();
    const session = writeLongLineSession(path.join(work, "live"), 3 * MB, { ended: false });
    const reasonOf = (report: { skipped: { line?: number; bytes?: number; reason: string }[] }) =>
      report.skipped.find((entry) => entry.line === session.line);

    let report = await importPath(session.file, session.file, undefined, { follow: true });
    expect(report.status).toBe("imported");
    expect(reasonOf(report)).toEqual({
      line: 25,
      bytes: session.bytes,
      reason: "line too long (3.00 MB so far, no line end yet): over the 1 MB a line may have (THREADLINE_MAX_LINE_MB), not read",
    });
    const firstTurns = (await storedTurns()).length;
    expect(firstTurns).toBeGreaterThan(5);

    // It grows by 2 MB: those are all that is read.
    const before = resumeCounts();
    appendFileSync(session.file, imageBytes(2 * MB));
    report = await importPath(session.file, session.file, undefined, { follow: true });
    expect(resumeCounts().resumed).toBe(before.resumed + 1);
    expect(resumeCounts().bytesRead - before.bytesRead).toBe(2 * MB);
    expect(reasonOf(report)).toMatchObject({ bytes: session.bytes + 2 * MB, reason: expect.stringContaining("5.00 MB so far") });

    // It ends, and the session goes on.
    appendFileSync(session.file, session.rest);
    const ended = resumeCounts();
    report = await importPath(session.file, session.file, undefined, { follow: true });
    expect(resumeCounts().resumed).toBe(ended.resumed + 1);
    expect(resumeCounts().bytesRead - ended.bytesRead).toBe(Buffer.byteLength(session.rest));
    const total = session.bytes + 2 * MB + session.rest.indexOf("\n");
    expect(reasonOf(report)).toEqual({
      line: 25,
      bytes: total,
      reason: "line too long (5.00 MB): over the 1 MB a line may have (THREADLINE_MAX_LINE_MB), not read",
    });
    const grown = await storedTurns();
    expect(grown.length).toBeGreaterThan(firstTurns);

    // The finished file imported whole stores the same turns and says the same of the line.
    await switchToFreshDatabase();
    forgetFollowedSessions();
    const whole = await importPath(session.file);
    expect(whole.skipped).toEqual(report.skipped);
    expect(await storedTurns()).toEqual(grown);
  });

  it("a Codex rollout: the long line is skipped with its number and size, every other line imported as without it", async () => {
    setServerEnv({ THREADLINE_MAX_LINE_MB: "1" });
    await switchToFreshDatabase();
    const lines = readFileSync(CODEX_ROLLOUT, "utf8").split("\n").filter(Boolean);
    const long = JSON.stringify({
      timestamp: "2025-09-19T09:03:00.000Z",
      type: "response_item",
      payload: { type: "function_call_output", call_id: "call_long", output: "x".repeat(2 * MB) },
    });
    const file = path.join(work, "codex", path.basename(CODEX_ROLLOUT));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${[...lines.slice(0, 11), long, ...lines.slice(11)].join("\n")}\n`);
    const report = await importPath(file);
    expect(report.status).toBe("imported");
    expect(report.skipped.filter((entry) => entry.bytes !== undefined)).toEqual([
      {
        line: 12,
        bytes: Buffer.byteLength(long),
        reason: "line too long (2.00 MB): over the 1 MB a line may have (THREADLINE_MAX_LINE_MB), not read",
      },
    ]);
    const withLong = await storedTurns();

    // Without it: a blank line in its place, so that the lines keep their numbers (Codex keys turns by them).
    await switchToFreshDatabase();
    writeFileSync(file, `${[...lines.slice(0, 11), "", ...lines.slice(11)].join("\n")}\n`);
    expect((await importPath(file)).status).toBe("imported");
    expect(withLong).toEqual(await storedTurns());
  });

  it("a file whose only line is too long says so", async () => {
    setServerEnv({ THREADLINE_MAX_LINE_MB: "1" });
    const file = path.join(work, "only", "rollout-long.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ type: "session_meta", payload: { pad: "p".repeat(2 * MB) } })}\n`);
    const report = await importPath(file);
    expect(report.status).toBe("failed");
    expect(report.error).toMatch(
      /^.*rollout-long\.jsonl: nothing to import\. 1 line skipped, the rest imported\. line 1: line too long \(2\.00 MB\)/,
    );
  });
});

describe("OpenCode records too large to read", () => {
  it("a part file or part row past the line limit is skipped with its size, and a session whose rows pass the document limit is left out", async () => {
    setServerEnv({ THREADLINE_MAX_LINE_MB: "1" });
    await switchToFreshDatabase();
    const doc = realOpenCodeExports()[0]!.doc;
    const session = doc.info.id as string;
    const message = doc.messages.find((m) => m.parts.length > 0)!;
    const big = { ...message.parts[0], type: "text", text: "x".repeat(2 * MB) };

    const [sessionFile] = writeStorageTree(path.join(work, "opencode-tree"), [doc]);
    const partFile = path.join(work, "opencode-tree", "storage", "part", message.info.id, `${big.id}.json`);
    writeFileSync(partFile, JSON.stringify(big));
    const fromTree = await importPath(sessionFile!);
    expect(fromTree.status).toBe("imported");
    expect(fromTree.skipped).toEqual([
      {
        path: partFile,
        bytes: Buffer.byteLength(JSON.stringify(big)),
        reason: expect.stringMatching(
          /^record too large \(2\.00 MB\): over the 1 MB a line or record may have \(THREADLINE_MAX_LINE_MB\), not read$/,
        ),
      },
    ]);

    const dbFile = path.join(work, "opencode-db", "opencode.db");
    const writer = writeOpenCodeDatabase(dbFile, [{ ...doc, messages: doc.messages.filter((m) => m !== message) }]);
    insertMessage(writer, session, { ...message, parts: [big, ...message.parts.slice(1)] });
    writer.close();
    const fromDatabase = await importPath(dbFile);
    expect(fromDatabase.status).not.toBe("failed");
    expect(fromDatabase.skipped).toEqual([
      expect.objectContaining({ path: `${session}/part/${big.id}`, reason: expect.stringContaining("record too large (2.00 MB)") }),
    ]);

    setServerEnv({ THREADLINE_MAX_LINE_MB: "1", THREADLINE_MAX_DOCUMENT_MB: "0.01" });
    const small = await importPath(dbFile);
    expect(small.skipped).toEqual([
      expect.objectContaining({ path: `${session}/part/${big.id}` }),
      {
        path: session,
        bytes: expect.any(Number),
        reason: expect.stringMatching(
          /^session too large: [\d,]+ bytes, larger than the 0\.01 MB a session's rows together may be \(THREADLINE_MAX_DOCUMENT_MB\); not read$/,
        ),
      },
    ]);
    expect(small.threadIds).toEqual([]);
  });
});

describe("a file read whole past the document limit", () => {
  it("is refused with its name and size, and writes nothing: a JSON document, one minified on a single line, JSON lines past the limit", async () => {
    setServerEnv({ THREADLINE_MAX_DOCUMENT_MB: "0.1" }); // 104,857 bytes; the export is 126,536
    const before = await rowCounts();
    const exported = path.join(work, "docs", "conversations.json");
    mkdirSync(path.dirname(exported), { recursive: true });
    writeFileSync(exported, readFileSync(CHATGPT_EXPORT));
    let report = await importPath(exported);
    expect(report).toMatchObject({
      status: "failed",
      error: `${exported}: 0.12 MB, larger than the 0.1 MB a file read whole may be (THREADLINE_MAX_DOCUMENT_MB); not read`,
    });

    const minified = path.join(work, "docs", "minified.json");
    writeFileSync(minified, JSON.stringify(JSON.parse(readFileSync(CHATGPT_EXPORT, "utf8"))));
    report = await importPath(minified);
    expect(report.status).toBe("failed");
    expect(report.error).toContain("larger than the 0.1 MB a file read whole may be (THREADLINE_MAX_DOCUMENT_MB)");

    // Codex lines read whole: what is kept of them may not pass the limit either.
    const rollout = path.join(work, "docs", "rollout-big.jsonl");
    const lines = readFileSync(CODEX_ROLLOUT, "utf8");
    writeFileSync(rollout, lines.repeat(Math.ceil((120 * 1024) / lines.length)));
    report = await importPath(rollout);
    expect(report.status).toBe("failed");
    expect(report.error).toMatch(/rollout-big\.jsonl: 0\.1\d MB, larger than the 0\.1 MB the lines of a file read whole may be/);
    expect(await rowCounts()).toEqual(before);

    // Under the limit, the same export imports.
    setServerEnv({ THREADLINE_MAX_DOCUMENT_MB: "1" });
    expect((await importPath(exported)).status).toBe("imported");
  });
});

describe("a followed folder with a long line", () => {
  it("shows the file with the line's number and size until the file changes, a restarted server too, without reading it", async () => {
    const folder = path.join(work, "followed");
    const session = writeLongLineSession(folder, 2 * MB);
    setServerEnv({ THREADLINE_MAX_LINE_MB: "1", THREADLINE_SOURCES: folder });
    const first = countingSync();
    let status = await first.sync.sync();
    await first.sync.close();
    const reason =
      "1 line skipped, the rest imported. line 25: line too long (2.00 MB): over the 1 MB a line may have (THREADLINE_MAX_LINE_MB), not read";
    expect(status.folders[0]).toMatchObject({ imported: 1, failed: 0, failures: [], warnings: [{ file: session.file, reason }] });

    // A restarted server: the file is unchanged, not read, and still listed.
    const restarted = countingSync();
    status = await restarted.sync.sync();
    expect(restarted.read).toEqual([]);
    expect(status.folders[0]).toMatchObject({ unchanged: 1, warnings: [{ file: session.file, reason }] });

    // Rewritten without the long line: read, and no longer listed.
    writeFileSync(session.file, `${session.fixture.join("\n")}\n`);
    status = await restarted.sync.sync();
    await restarted.sync.close();
    expect(restarted.read).toEqual([session.file]);
    expect(status.folders[0]!.warnings).toEqual([]);
  });
});
