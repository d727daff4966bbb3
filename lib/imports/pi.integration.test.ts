/**
 * Pi sessions through the real import service and a real database: each real fixture and a
 * branched synthetic session imported by path, imported again unchanged, exported as
 * threadline/v1 and imported back into an empty database with the same turns; and a followed
 * `~/.pi/agent/sessions` (a temporary HOME holding the real fixtures) growing by a line.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { importedThreadId } from "@/lib/importers/stable-id";
import { createSourceSync } from "@/lib/sources/sync";
import type { FileImportReport } from "@/lib/db/imports/imports";
import { fetchThread, forgetSyncedImports, restoreServerEnv, setServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { exportText, importOk } from "@/lib/testing/native-documents";
import { ON_POSTGRES } from "@/lib/testing/source-sync";
import { importFile, importPath } from "./import-file";
import { someFixtures } from "@/lib/testing/real-fixtures";

const PI_SESSIONS = path.join(process.cwd(), "fixtures/real/pi/agent/sessions");
const FIXTURES = someFixtures(
  readdirSync(PI_SESSIONS).flatMap((dir) => readdirSync(path.join(PI_SESSIONS, dir)).map((name) => path.join(PI_SESSIONS, dir, name))),
  PI_SESSIONS,
);
const work = mkdtempSync(path.join(os.tmpdir(), "threadline-pi-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(async () => {
  restoreServerEnv();
  await forgetSyncedImports();
});

/** A v3 session with two branches: the active one (u3) and an abandoned one (a2), and a compaction on the main path. */
const BRANCHED_ID = "5e551000-0000-4000-8000-00000000b001";
function branchedSession(): string {
  const t = (s: number) => new Date(Date.parse("2026-02-01T10:00:00.000Z") + s * 1000).toISOString();
  const usage = {
    input: 5,
    output: 50,
    cacheRead: 1000,
    cacheWrite: 20,
    totalTokens: 1075,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.02 },
  };
  const reply = (id: string, parentId: string, text: string, s: number) => ({
    type: "message",
    id,
    parentId,
    timestamp: t(s),
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage,
      stopReason: "stop",
      timestamp: 0,
    },
  });
  const lines = [
    { type: "session", version: 3, id: BRANCHED_ID, timestamp: t(0), cwd: "/w/branched" },
    { type: "message", id: "u1", parentId: null, timestamp: t(1), message: { role: "user", content: "plan it", timestamp: 0 } },
    reply("a1", "u1", "a plan", 2),
    { type: "message", id: "u2", parentId: "a1", timestamp: t(3), message: { role: "user", content: "do it", timestamp: 0 } },
    reply("a2", "u2", "first try", 4),
    { type: "branch_summary", id: "bs", parentId: "a1", timestamp: t(5), fromId: "a2", summary: "The first try failed." },
    {
      type: "compaction",
      id: "c1",
      parentId: "bs",
      timestamp: t(6),
      summary: "Planned; one try dropped.",
      firstKeptEntryId: "bs",
      tokensBefore: 5000,
    },
    { type: "message", id: "u3", parentId: "c1", timestamp: t(7), message: { role: "user", content: "do it differently", timestamp: 0 } },
    reply("a3", "u3", "second try", 8),
  ];
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** What a stored turn is, without what the database derives (ids, token counts, prices). */
function turnShape(turn: Awaited<ReturnType<typeof fetchThread>>["turns"][number]) {
  const { id: _id, threadId: _threadId, tokenEstimate: _e, tokens: _t, tokensEstimated: _te, cost: _c, ...rest } = turn;
  return rest;
}

async function expectRoundTrip(report: FileImportReport): Promise<void> {
  const originals = await Promise.all(report.threadIds.map((id) => fetchThread(id)));
  const documents = await Promise.all(report.threadIds.map((id) => exportText(id)));
  await switchToFreshDatabase();
  for (const document of documents) await importOk(document);
  for (const original of originals) {
    const copy = await fetchThread(original.thread.id);
    expect(copy.turns.map(turnShape)).toEqual(original.turns.map(turnShape));
    expect(copy.thread.title).toBe(original.thread.title);
    expect(copy.thread.metadata).toEqual(original.thread.metadata);
  }
  restoreServerEnv();
}

describe("Pi sessions imported by path", () => {
  it.each(FIXTURES.map((file) => [path.basename(file), file] as const))(
    "%s: imports fully, again unchanged, and round-trips through export",
    async (_name, file) => {
      const report = await importPath(file);
      expect(report.status, report.error).toBe("imported");
      expect(report.format).toBe("pi");
      expect(report.skipped).toEqual([]);
      const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!);
      expect(report.threadIds).toEqual([importedThreadId("pi", header.id)]);
      const { thread, turns } = await fetchThread(report.threadIds[0]!);
      expect(thread.project).toBe(header.cwd);
      // Independently: one turn per message or compaction line.
      const turning = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() && ["message", "compaction"].includes(JSON.parse(l).type));
      expect(turns).toHaveLength(turning.length);
      const replies = turning.map((l) => JSON.parse(l).message).filter((m) => m?.role === "assistant");
      // Every reply's usage stored as reported (none estimated), summing to the file's.
      expect(turns.filter((t) => t.usage).map((t) => [t.role, t.usage!.source])).toEqual(replies.map(() => ["assistant", "reported"]));
      expect(turns.reduce((n, t) => n + (t.usage?.outputTokens ?? 0), 0)).toBe(replies.reduce((n, m) => n + m.usage.output, 0));
      expect(turns.reduce((n, t) => n + (t.usage?.cacheReadTokens ?? 0), 0)).toBe(replies.reduce((n, m) => n + m.usage.cacheRead, 0));
      // pi's own price of each reply, kept beside Threadline's.
      expect(turns.reduce((n, t) => n + (t.cost?.reportedUsd ?? 0), 0)).toBeCloseTo(
        replies.reduce((n, m) => n + m.usage.cost.total, 0),
        12,
      );

      // The same content again: skipped by its digest; with one more blank line: every thread unchanged.
      expect((await importPath(file)).status).toBe("unchanged");
      const again = await importFile(file, `${readFileSync(file, "utf8")}\n`);
      expect(again.status, again.error).toBe("unchanged");
      expect(again.threadResults.map((r) => r.change)).toEqual(["unchanged"]);

      await expectRoundTrip(report);
    },
  );

  it("a branched session: the abandoned branch is a fork thread of the session, the compaction a marker", async () => {
    const file = path.join(work, `2026-02-01T10-00-00-000Z_${BRANCHED_ID}.jsonl`);
    writeFileSync(file, branchedSession());
    const report = await importPath(file);
    expect(report.status, report.error).toBe("imported");
    const mainId = importedThreadId("pi", BRANCHED_ID);
    const forkId = importedThreadId("pi", `${BRANCHED_ID}:fork:u2`);
    expect(report.threadIds).toEqual([mainId, forkId]);
    const main = await fetchThread(mainId);
    expect(main.turns.map((t) => t.role)).toEqual(["user", "assistant", "system", "system", "user", "assistant"]);
    expect(main.turns[3]!.parts).toEqual(expect.arrayContaining([expect.objectContaining({ type: "compaction", tokensBefore: 5000 })]));
    const fork = await fetchThread(forkId);
    expect(fork.thread.parentThreadId).toBe(mainId);
    expect(fork.turns.map((t) => t.content)).toEqual(["do it", "first try"]);
    // Each reply counted once across the two threads.
    expect([...main.turns, ...fork.turns].filter((t) => t.usage?.outputTokens === 50)).toHaveLength(3);

    // A reply appended to the active branch: the main thread grows, the fork stays.
    appendFileSync(
      file,
      JSON.stringify({
        type: "message",
        id: "u4",
        parentId: "a3",
        timestamp: "2026-02-01T10:00:09.000Z",
        message: { role: "user", content: "thanks", timestamp: 0 },
      }) + "\n",
    );
    const grown = await importPath(file);
    expect(grown.threadResults.map((r) => [r.id, r.change, r.turnsAdded])).toEqual([
      [mainId, "appended", 1],
      [forkId, "unchanged", 0],
    ]);

    await expectRoundTrip(grown);
  });
});

describe("following ~/.pi/agent/sessions", () => {
  it.skipIf(ON_POSTGRES)("is followed by default when it exists, and a session that grows gains its new turns", async () => {
    const home = path.join(work, "home");
    const sessions = path.join(home, ".pi", "agent", "sessions");
    mkdirSync(sessions, { recursive: true });
    cpSync(PI_SESSIONS, sessions, { recursive: true });
    setServerEnv({ HOME: home, THREADLINE_SOURCES: undefined });
    const reports = new Map<string, FileImportReport>();
    const sync = createSourceSync({
      importFile: async (file) => {
        const report = await importPath(file);
        reports.set(file, report);
        return report;
      },
      log: () => {},
    });
    const first = await sync.sync();
    const folder = first.folders.find((f) => f.path === sessions);
    expect(folder).toMatchObject({ state: "found", filesSeen: 2, imported: 2, failed: 0 });

    const v3 = path.join(
      sessions,
      "--tmp-agent-history-real-agent-pi-workspace--",
      "2026-06-05T05-24-28-246Z_019e963d-6bd6-7ade-8a49-256ac3391bdd.jsonl",
    );
    const threadId = importedThreadId("pi", "019e963d-6bd6-7ade-8a49-256ac3391bdd");
    expect((await fetchThread(threadId)).turns).toHaveLength(2);
    appendFileSync(
      v3,
      JSON.stringify({
        type: "message",
        id: "f00d0001",
        parentId: "65697c71",
        timestamp: "2026-06-05T05:25:00.000Z",
        message: { role: "user", content: "and now?", timestamp: 0 },
      }) + "\n",
    );
    const second = await sync.sync();
    expect(second.folders.find((f) => f.path === sessions)).toMatchObject({ imported: 1, unchanged: 1, failed: 0 });
    expect(reports.get(v3)!.threadResults).toEqual([
      expect.objectContaining({ id: threadId, change: "appended", turnsAdded: 1, turnsRemoved: 0 }),
    ]);
    const { turns } = await fetchThread(threadId);
    expect(turns.map((t) => t.content).at(-1)).toBe("and now?");
  });

  it.skipIf(ON_POSTGRES)("reports a file in the folder that is not a Pi session, and imports nothing of it", async () => {
    const home = path.join(work, "home-bad");
    const sessions = path.join(home, ".pi", "agent", "sessions", "--w--");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(path.join(sessions, "2026-01-01T00-00-00-000Z_bad.jsonl"), '{"type":"message","id":"x","parentId":null}\n');
    setServerEnv({ HOME: home, THREADLINE_SOURCES: undefined });
    const sync = createSourceSync({ importFile: (file) => importPath(file), log: () => {} });
    const status = await sync.sync();
    const folder = status.folders.find((f) => f.path === path.dirname(sessions))!;
    expect(folder).toMatchObject({ filesSeen: 1, imported: 0, failed: 1 });
    expect(folder.failures[0]!.reason).toMatch(/JSON lines in no format Threadline reads/);
  });
});
