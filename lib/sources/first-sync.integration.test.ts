/**
 * A followed folder's first sync stores exactly what importing its files one by one stores: the
 * threads, turns, token counts, usage and insights rollups, search index and secret findings, row
 * for row. The sync imports in bulk (many files to a transaction, the search index filled once per
 * transaction, its files' last counts following their commits, the files after the first parsed on
 * the parse worker); this holds it to the plain import's results. Real Claude Code sessions with their sub-agents and compaction
 * runs (lib/testing/claude-code-folder.ts), one with a secret in it.
 */
import { appendFileSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { countBacklog } from "@/lib/db/threads/count-backlog";
import { refreshUsageBuckets } from "@/lib/db/usage/usage-aggregates";
import { searchTurns } from "@/lib/db/threads/search";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { forgetFollowedSessions } from "@/lib/imports/claude-code-session";
import { importPath } from "@/lib/imports/import-file";
import { parseWorkerRunning, parseWorkerStats } from "@/lib/imports/parse-pool";
import { transcriptFiles } from "@/lib/imports/transcript-files";
import { scanForSecrets } from "@/lib/secrets/scan";
import { writeClaudeCodeFolder } from "@/lib/testing/claude-code-folder";
import { restoreServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { tableChecksums } from "@/lib/testing/table-checksums";
import { newestFirst } from "./folder-sync";
import { createSourceSync } from "./sync";

const SESSIONS = 30;
/** Rows that say when they were written (importedAt, foundAt, leases) or what only a sync keeps (SourceFile): compared without those. */
const TIMED_TABLES = new Set(["ImportedFile", "CompactionRun", "SecretFinding", "SourceFile", "JobLease"]);
/**
 * Sums across threads made in SQL: PostgreSQL adds their costs in the order it reads the rows,
 * which differs between a batched sync and imports one by one (0.33115095 against
 * 0.33115094999999994). Their rows are compared with costs to 12 significant digits.
 */
const CROSS_THREAD_SUMS = ["UsageHour", "UsageDay", "InsightsHour"];

async function crossThreadSums(table: string) {
  const rows = await (await db()).$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${table}"`);
  return rows
    .map((row) =>
      JSON.stringify(row, (key, value: unknown) =>
        typeof value === "bigint" ? Number(value) : key === "costUsd" ? Number(Number(value).toPrecision(12)) : value,
      ),
    )
    .sort();
}

const dir = mkdtempSync(path.join(os.tmpdir(), "threadline-first-sync-"));
const projects = path.join(dir, "projects");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  restoreServerEnv();
});

async function walked() {
  const files = [];
  for await (const file of transcriptFiles(projects, {})) files.push(file);
  return files;
}

/** What the database holds once the scan for secrets and the usage rollups have caught up. */
async function stored() {
  await scanForSecrets();
  await refreshUsageBuckets();
  const client = await db();
  const tables = (await tableChecksums(client)).filter((sum) => !TIMED_TABLES.has(sum.table) && !CROSS_THREAD_SUMS.includes(sum.table));
  const sums = Object.fromEntries(
    await Promise.all(CROSS_THREAD_SUMS.map(async (table) => [table, await crossThreadSums(table)] as const)),
  );
  const files = await client.importedFile.findMany({
    select: { sha256: true, name: true, size: true, format: true, threadIds: true },
    orderBy: { sha256: "asc" },
  });
  const runs = await client.compactionRun.findMany({ omit: { importedAt: true }, orderBy: { id: "asc" } });
  const findings = await client.secretFinding.findMany({
    select: { turnSeq: true, turnId: true, field: true, kind: true, rules: true, start: true, end: true, fingerprint: true },
    orderBy: [{ turnSeq: "asc" }, { field: "asc" }, { start: "asc" }],
  });
  const search = await searchTurns({ q: "function", cursor: undefined, limit: 50 }, null);
  return { tables, sums, files, runs, findings, search: search.items.map((hit) => [hit.threadId, hit.turnId, hit.snippet]) };
}

describe("a followed folder's first sync", () => {
  it("stores what importing its files one by one stores, row for row", async () => {
    writeClaudeCodeFolder(projects, SESSIONS, { days: 60, endAt: new Date("2026-10-01T00:00:00Z") });
    const sample = secretSamples(7)[0]!;
    const session = (await walked())[0]!.path;
    const last = JSON.parse(readFileSync(session, "utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    appendFileSync(
      session,
      `${JSON.stringify({ ...last, parentUuid: last.uuid, uuid: crypto.randomUUID(), type: "user", message: { role: "user", content: sample.line(sample.value) } })}\n`,
    );

    await switchToFreshDatabase();
    const sync = createSourceSync({ setting: () => ({ origin: "setting", folders: [projects], warnings: [] }), log: () => undefined });
    const prepared = parseWorkerStats.prepared;
    const status = await sync.sync();
    await sync.close();
    // Every file the sync read ahead (all but the first) was parsed and prepared on the parse worker;
    // the imports one by one below prepare theirs on this thread.
    expect(parseWorkerStats.prepared - prepared).toBe(status.folders[0]!.filesSeen - 1);
    // It ends with the sync, not 10 s idle later (the token counts' vocabulary came on top of it).
    await expect.poll(() => parseWorkerRunning(), { timeout: 3_000 }).toBe(false);
    // The sync stores its turns uncounted; the backlog counts them once it has ended.
    await countBacklog();
    const files = await walked();
    expect(status.folders[0]).toMatchObject({ filesSeen: files.length, imported: files.length, failed: 0 });
    const synced = await stored();

    forgetFollowedSessions();
    await switchToFreshDatabase();
    const within = realpathSync(projects);
    // In the sync's order (newest first): search ranks equal matches by when they were stored.
    for (const file of [...files].sort(newestFirst))
      expect((await importPath(file.path, file.path, undefined, { follow: true, within })).status).toBe("imported");
    // Each import counted its own turns; the backlog, which every server runs, finds none to count
    // and keeps where its pass ended, as it did after the sync.
    await countBacklog();
    const oneByOne = await stored();

    const rows = Object.fromEntries(synced.tables.map((sum) => [sum.table, sum.rows]));
    for (const table of ["Thread", "Turn", "TurnTokenCount", "UsageBucket", "InsightsSession"]) expect(rows[table]).toBeGreaterThan(0);
    for (const table of CROSS_THREAD_SUMS) expect(synced.sums[table]!.length).toBeGreaterThan(0);
    expect(synced.findings.length).toBeGreaterThan(0);
    expect(synced.search.length).toBeGreaterThan(0);
    expect(synced).toEqual(oneByOne);
  }, 120_000);
});
