/**
 * The import's direct writes (SQLite or PostgreSQL) on the test file's real database: rows Prisma
 * reads exactly as its own, counts from the background counter, all-or-nothing on failure, and the
 * write lock shared with Prisma in this process and with other processes' connections.
 */
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { sqliteFilePath } from "@/lib/env/database-url";
import { serverSettings } from "@/lib/env";
import type { ImportedThread, ImportedTurn, ThreadTurn } from "@/lib/importers/types";
import { importedThreadId } from "@/lib/importers/stable-id";
import { getTokenizer } from "@/lib/tokenizers/registry";
import { api, fetchThread, newThread, newTurn, rowCounts, sleep } from "@/lib/testing/integration";
import { db } from "../engine/client";
import { databaseKind } from "../engine/create-client";
import { POSTGRES_WRITE_LOCK } from "../engine/dialect";
import { sqliteDateTime, withImportTransaction } from "./import-writer";
import { storeParsedSource, storeTurnStream } from "./turn-stream-import";

const file = () => sqliteFilePath(serverSettings().databaseUrl);

function source(key: string, turnCount: number): ImportedThread {
  const turns: ImportedTurn[] = Array.from({ length: turnCount }, (_, i) => {
    const content = i % 2 === 0 ? `question ${i} about the session refresh` : `tool output ${i}\n${"line of output ".repeat(20)}`;
    return {
      key: `t${i}`,
      role: i % 2 === 0 ? "user" : "tool",
      content,
      timestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString(),
      parts: i % 2 === 0 ? undefined : [{ type: "tool_result", toolCallId: `call_${i}`, content }],
    };
  });
  return { key, toolName: "claude-code", title: `Session ${key}`, turns };
}

const sourceFile = (name: string) => ({ name, sha256: name.padEnd(64, "0").slice(0, 64), size: 1 });

async function* slowly(
  thread: ImportedThread,
  { failAt, pauseEvery }: { failAt?: number; pauseEvery?: number } = {},
): AsyncGenerator<ThreadTurn> {
  for (const [i, turn] of thread.turns.entries()) {
    if (i === failAt) throw new Error("the source broke off");
    if (pauseEvery && i % pauseEvery === 0) await sleep(5);
    yield { threadIndex: 0, turn };
  }
}

const onPostgres = async () => databaseKind(await db()) === "postgres";

describe("import writer", () => {
  it("stores DateTime as Prisma does, so both read each other's rows alike (SQLite text)", async (context) => {
    if (await onPostgres()) context.skip(); // a timestamp column there: the next test reads imported times back
    const thread = await newThread({ toolName: "chat" });
    const raw = new BetterSqlite3(file(), { readonly: true });
    const stored = raw.prepare(`SELECT "createdAt" FROM "Thread" WHERE "id" = ?`).pluck().get(thread.id);
    raw.close();
    expect(stored).toBe(sqliteDateTime(new Date(thread.createdAt)));
  });

  it("stores every turn with the registry's o200k count and its parts, which read back whole", async () => {
    const imported = source("counted", 1_234);
    const report = await storeParsedSource(
      { format: "claude-code", threads: [imported], skipped: [], warnings: [] },
      sourceFile("counted"),
    );
    expect(report).toMatchObject({ status: "imported", turnsAdded: 1_234, threads: { created: 1 } });
    const id = importedThreadId("claude-code", "counted");
    const client = await db();
    const counts = await client.turnTokenCount.findMany({
      where: { threadId: id, tokenizer: "o200k_base" },
      include: { turn: { select: { index: true, content: true } } },
    });
    expect(counts).toHaveLength(1_234);
    const o200k = getTokenizer("o200k_base");
    for (const count of counts) expect(count.tokens).toBe(o200k.count(count.turn.content));
    const { thread, turns } = await fetchThread(id);
    expect(thread).toMatchObject({ turnCount: 1_234, title: "Session counted", createdAt: "2026-01-05T09:00:00.000Z" });
    expect(turns[1]!.parts).toEqual([{ type: "tool_result", toolCallId: "call_1", content: imported.turns[1]!.content }]);
    expect(turns[1]!.timestamp).toBe(imported.turns[1]!.timestamp);
  });

  it("writes nothing when the source fails part way, counts included, and imports whole afterwards", async () => {
    const before = await rowCounts();
    const client = await db();
    const countsBefore = await client.turnTokenCount.count();
    const imported = source("broken", 1_500);
    const outline = { format: "claude-code" as const, threads: [imported], skipped: [], warnings: [] };
    await expect(storeTurnStream(outline, slowly(imported, { failAt: 1_200 }), sourceFile("broken"))).rejects.toThrow(
      "the source broke off",
    );
    await sleep(200); // counts still on their way must not land after the rollback
    expect(await rowCounts()).toEqual(before);
    expect(await client.turnTokenCount.count()).toBe(countsBefore);
    expect(await client.importedFile.count({ where: { name: "broken" } })).toBe(0);

    const report = await storeTurnStream(outline, slowly(imported), sourceFile("broken"));
    expect(report.turnsAdded).toBe(1_500);
    expect(await client.turnTokenCount.count()).toBe(countsBefore + 1_500);
  });

  it("lets this process's other writes wait their turn during an import, and both land", async () => {
    const other = await newThread({ toolName: "chat" });
    const imported = source("alongside", 2_000);
    const importing = storeTurnStream(
      { format: "claude-code", threads: [imported], skipped: [], warnings: [] },
      slowly(imported, { pauseEvery: 100 }),
      sourceFile("alongside"),
    );
    await sleep(20);
    const appended = await newTurn(other.id, { role: "user", content: "written while an import runs" });
    expect(appended.index).toBe(0);
    expect((await importing).turnsAdded).toBe(2_000);
    expect((await fetchThread(other.id)).thread.turnCount).toBe(1);
  });

  it("waits for another process's write lock without blocking the event loop", async (context) => {
    if (await onPostgres()) context.skip(); // the next test
    const holder = new BetterSqlite3(file());
    holder.exec("BEGIN IMMEDIATE");
    const imported = source("waiting", 10);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    const importing = storeParsedSource({ format: "claude-code", threads: [imported], skipped: [], warnings: [] }, sourceFile("waiting"));
    await sleep(300);
    holder.exec("COMMIT");
    holder.close();
    const report = await importing;
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(10);
    expect(report.turnsAdded).toBe(10);
  });

  it("waits for another connection's write lock on PostgreSQL, then imports", async (context) => {
    if (!(await onPostgres())) context.skip();
    const holder = new pg.Client({ connectionString: serverSettings().databaseUrl });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query(`SELECT pg_advisory_xact_lock(${POSTGRES_WRITE_LOCK})`);
    const imported = source("waiting-pg", 10);
    let settled = false;
    const importing = storeParsedSource(
      { format: "claude-code", threads: [imported], skipped: [], warnings: [] },
      sourceFile("waiting-pg"),
    ).finally(() => (settled = true));
    await sleep(300);
    expect(settled).toBe(false);
    expect((await api.getThread(importedThreadId("claude-code", "waiting-pg"))).status).toBe(404);
    await holder.query("COMMIT");
    await holder.end();
    expect((await importing).turnsAdded).toBe(10);
  });

  it("runs a raw write transaction on the import connection: rows for a query, none for a write, values bound as Prisma binds them, all or nothing", async (context) => {
    if (await onPostgres()) context.skip(); // SQLite only: PostgreSQL's passes stay on Prisma
    const key = "raw-transaction";
    const at = new Date(Date.UTC(2026, 2, 4, 5, 6, 7, 89));
    const rows = await withImportTransaction(serverSettings().databaseUrl, async (tx) => {
      const written = await tx.$queryRawUnsafe(`INSERT INTO "AppSetting" ("key", "value") VALUES (?, ?)`, key, at);
      const read = await tx.$queryRawUnsafe<{ value: string; flag: number }[]>(
        `SELECT "value" AS value, ? AS flag FROM "AppSetting" WHERE "key" = ?`,
        true,
        key,
      );
      return { written, read };
    });
    expect(rows).toEqual({ written: [], read: [{ value: sqliteDateTime(at), flag: 1 }] });
    const client = await db();
    expect((await client.appSetting.findUnique({ where: { key } }))?.value).toBe(sqliteDateTime(at));

    await expect(
      withImportTransaction(serverSettings().databaseUrl, async (tx) => {
        await tx.$queryRawUnsafe(`UPDATE "AppSetting" SET "value" = 'changed' WHERE "key" = ?`, key);
        throw new Error("the pass failed");
      }),
    ).rejects.toThrow("the pass failed");
    expect((await client.appSetting.findUnique({ where: { key } }))?.value).toBe(sqliteDateTime(at));
    // The lock is let go: Prisma writes again.
    await client.appSetting.delete({ where: { key } });
  });
});
