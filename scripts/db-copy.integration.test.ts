/**
 * `npm run db:copy` end to end, as a user runs it: the test file's database (SQLite, or PostgreSQL
 * in the PostgreSQL pass) filled through the app's own routes, copied to a new SQLite file and from
 * there into a fresh database of the run's kind (SQLite to PostgreSQL in that pass). Every table
 * arrives with the same rows, the app works on the copy, and refusals write nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as compactionsPost } from "@/app/api/threads/[id]/compactions/route";
import { POST as forksPost } from "@/app/api/threads/[id]/forks/route";
import { db } from "@/lib/db/engine/client";
import { COPIED_TABLES, copyDatabase, CopyError } from "@/lib/db/engine/copy";
import { tableChecksums } from "@/lib/testing/table-checksums";
import { createDatabase, databaseKind } from "@/lib/db/engine/create-client";
import { importDocuments } from "@/lib/db/imports/transfer";
import { buildDemoDocument } from "@/lib/demo/demo-data";
import { serverSettings } from "@/lib/env";
import { jsonRequest, params } from "@/lib/testing/api";
import { api, fetchThread, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { createTestDatabase } from "@/lib/testing/test-database";
import { dbCopyMain } from "./db-copy-main";

/** `npm run db:copy`'s work in this process (its main function), as the command would report it. */
async function dbCopy(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await dbCopyMain(args, { log: (line) => out.push(line), err: (line) => err.push(line) });
  return { status, out: out.join("\n"), err: err.join("\n") };
}

/** The command as its own process: what a user runs (the process's output and exit code). */
function dbCopyProcess(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/db-copy.ts", ...args], {
    encoding: "utf8",
  });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

const scratch = mkdtempSync(path.join(tmpdir(), "threadline-copy-"));
let sourceUrl: string;

/** Some of everything: demo threads (chains, parts, attribution), a NUL, a snapshot, a compaction, a fork, settings. */
async function fillSource(): Promise<void> {
  await importDocuments([buildDemoDocument(new Date("2026-11-01T10:00:00Z"))]);
  const thread = await newThread({ toolName: "debug", title: "Ünïcödé ✓ 🧵" });
  await newTurn(thread.id, {
    role: "user",
    content: "the log has a NUL\u0000 here",
    files: ["src/a.ts"],
    fileSnapshots: [{ path: "src/a.ts", content: "export const a = 1;\n" }],
  });
  for (let i = 1; i < 8; i++)
    await newTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: `turn ${i}: ${"words ".repeat(40 * i)}` });
  const compaction = await compactionsPost(
    jsonRequest("POST", `/api/threads/${thread.id}/compactions`, { strategy: "full", apply: true }),
    params({ id: thread.id }),
  );
  expect(compaction.status, await compaction.clone().text()).toBe(201);
  const fork = await forksPost(jsonRequest("POST", `/api/threads/${thread.id}/forks`, { atTurn: 3 }), params({ id: thread.id }));
  expect(fork.status, await fork.clone().text()).toBe(201);
  const client = await db();
  await client.customModel.create({
    data: { id: "team-model", displayName: "Team model", contextWindow: 64_000, tokenizer: "o200k_base", createdAt: new Date() },
  });
  await client.appSetting.create({ data: { key: "compactionModel", value: "openai:gpt-4o-mini" } });
  await client.importedFile.create({
    data: {
      sha256: "a".repeat(64),
      name: "session.jsonl",
      size: 10,
      format: "claude-code",
      importedAt: new Date(),
      threadIds: JSON.stringify([thread.id]),
    },
  });
}

beforeAll(async () => {
  sourceUrl = serverSettings().databaseUrl;
  await fillSource();
}, 60_000);

describe("npm run db:copy", () => {
  it("names every table of the schema, so a new one cannot be left out of the copy", () => {
    const models = [...readFileSync("prisma/schema.prisma", "utf8").matchAll(/^model (\w+) \{/gm)].map((m) => m[1]);
    expect(COPIED_TABLES.map((t) => t.table).sort()).toEqual(models.sort());
  });

  it(
    "copies everything through a SQLite file into a fresh database with the same counts and checksums, and the app works on the copy",
    { timeout: 120_000 },
    async () => {
      const source = await db();
      const expected = await tableChecksums(source);
      for (const table of [
        "Thread",
        "Turn",
        "TurnTokenCount",
        "FileSnapshot",
        "AppSetting",
        "CustomModel",
        "ImportedFile",
        "Compaction",
        "Fork",
      ]) {
        expect(expected.find((t) => t.table === table)!.rows, table).toBeGreaterThan(0);
      }
      // Read 3 rows a batch, every table's keyset crosses ties on its first key column (a thread's
      // buckets, a turn's counts) and must read each row once.
      expect(await tableChecksums(source, 3)).toEqual(expected);

      const middle = `file:${path.join(scratch, "middle.db")}`;
      const first = dbCopyProcess("--from", sourceUrl, "--to", middle);
      expect(first.status, first.err).toBe(0);
      expect(first.out).toMatch(/every table verified by count and checksum/);

      const target = await createTestDatabase(); // PostgreSQL in the PostgreSQL pass
      const second = await dbCopy("--from", middle, "--to", target);
      expect(second.status, second.err).toBe(0);
      const turns = expected.find((t) => t.table === "Turn")!;
      expect(second.out).toMatch(new RegExp(`^Turn\\s+${turns.rows.toLocaleString("en")}\\s+${turns.checksum} = ${turns.checksum}$`, "m"));

      const copy = createDatabase(target);
      try {
        expect(await tableChecksums(copy)).toEqual(expected);
      } finally {
        await copy.$disconnect();
      }

      const ids = (await source.thread.findMany({ select: { id: true } })).map((t) => t.id);
      const exportsBefore = await Promise.all(ids.map(async (id) => (await api.exportThread(id)).text()));
      setServerEnv({ DATABASE_URL: target });
      try {
        expect(await Promise.all(ids.map(async (id) => (await api.exportThread(id)).text()))).toEqual(exportsBefore);
        // New rows continue after the copied ones (PostgreSQL's sequence was moved past them).
        const appended = await newTurn(ids[0]!, { role: "user", content: "written on the copy" });
        const fresh = await newThread({ toolName: "chat" });
        await newTurn(fresh.id, { role: "user", content: "a new thread on the copy" });
        expect((await fetchThread(ids[0]!)).turns.at(-1)).toMatchObject({ index: appended.index, content: "written on the copy" });
      } finally {
        restoreServerEnv();
      }
    },
  );

  it("refuses a destination that holds data, and leaves it as it was", { timeout: 60_000 }, async () => {
    const target = `file:${path.join(scratch, "occupied.db")}`;
    expect((await dbCopy("--from", sourceUrl, "--to", target)).status).toBe(0);
    const before = await checksumsAt(target);
    const again = await dbCopy("--from", sourceUrl, "--to", target);
    expect(again.status).toBe(1);
    expect(again.err).toMatch(/db:copy: the destination is not empty \(\d+ rows in Thread, .*\): db:copy only fills an empty database/);
    expect(await checksumsAt(target)).toEqual(before);
  });

  it("writes nothing when a table does not read back as it was sent", { timeout: 60_000 }, async () => {
    const target = await createTestDatabase();
    const destination = createDatabase(target);
    try {
      // A trigger that alters turns as they arrive stands for any loss on the way.
      if (databaseKind(destination) === "postgres") {
        await destination.$executeRawUnsafe(
          `CREATE FUNCTION garble() RETURNS trigger AS 'BEGIN NEW."tokenEstimate" := NEW."tokenEstimate" + 1; RETURN NEW; END' LANGUAGE plpgsql`,
        );
        await destination.$executeRawUnsafe(`CREATE TRIGGER garble BEFORE INSERT ON "Turn" FOR EACH ROW EXECUTE FUNCTION garble()`);
      } else {
        await destination.$executeRawUnsafe(
          `CREATE TRIGGER garble AFTER INSERT ON "Turn" BEGIN UPDATE "Turn" SET "tokenEstimate" = "tokenEstimate" + 1 WHERE "seq" = NEW."seq"; END`,
        );
      }
      const copying = copyDatabase(await db(), destination);
      await expect(copying).rejects.toThrow(CopyError);
      await expect(copying).rejects.toThrow(/^Turn: read back \d+ rows with checksum \w+, expected \d+ with \w+; nothing was written$/);
      for (const table of await tableChecksums(destination)) expect(table.rows, table.table).toBe(0);
    } finally {
      await destination.$disconnect();
    }
  });

  it("copies a cost summed to 17 significant digits, which PostgreSQL through Prisma keeps to 15", { timeout: 60_000 }, async () => {
    const floats = `file:${path.join(scratch, "floats.db")}`;
    expect((await dbCopy("--from", sourceUrl, "--to", floats)).status).toBe(0);
    const cost = 18.720595499999998;
    const source = createDatabase(floats);
    try {
      await source.usageHour.create({
        data: {
          hour: 500_000,
          modelProvider: "anthropic",
          modelName: "claude-opus-4-6",
          inputTokens: 1,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          outputTokens: 1,
          reasoningTokens: 0,
          costUsd: 0,
          responses: 1,
          unpricedResponses: 0,
          estimatedResponses: 0,
        },
      });
      // Written by SQLite itself, as the usage sums' SUM writes it: a parameter through Prisma would be rounded on the way.
      await source.$executeRawUnsafe(`UPDATE "UsageHour" SET "costUsd" = ${cost} WHERE "hour" = 500000`);
      expect((await source.usageHour.findFirstOrThrow({ where: { hour: 500_000 } })).costUsd).toBe(cost);
    } finally {
      await source.$disconnect();
    }
    const target = await createTestDatabase(); // PostgreSQL in the PostgreSQL pass
    const copied = await dbCopy("--from", floats, "--to", target);
    expect(copied.status, copied.err).toBe(0);
    const copy = createDatabase(target);
    try {
      const row = await copy.usageHour.findFirstOrThrow({ where: { hour: 500_000 } });
      expect(row.costUsd.toPrecision(15)).toBe(cost.toPrecision(15));
    } finally {
      await copy.$disconnect();
    }
  });

  it("explains bad arguments without touching anything", async () => {
    expect(dbCopyProcess()).toMatchObject({
      status: 2,
      err: expect.stringMatching(/--from and --to are both required\nusage: npm run db:copy/),
    });
    expect(await dbCopy("--from", sourceUrl, "--to", sourceUrl)).toMatchObject({
      status: 2,
      err: expect.stringContaining("--from and --to name the same database"),
    });
    const missing = path.join(scratch, "missing.db");
    expect(await dbCopy("--from", `file:${missing}`, "--to", `file:${path.join(scratch, "x.db")}`)).toMatchObject({
      status: 2,
      err: expect.stringContaining(`--from: no SQLite database at ${missing}`),
    });
    const empty = path.join(scratch, "empty.db");
    writeFileSync(empty, "");
    expect(await dbCopy("--from", `file:${empty}`, "--to", `file:${path.join(scratch, "z.db")}`)).toMatchObject({
      status: 1,
      err: expect.stringContaining("--from: the source database is not at the current schema"),
    });
    expect(await dbCopy("--from", "mysql://host/db", "--to", `file:${path.join(scratch, "y.db")}`)).toMatchObject({
      status: 2,
      err: expect.stringContaining("must start with file: (SQLite) or postgres://"),
    });
  });
});

async function checksumsAt(url: string) {
  const client = createDatabase(url);
  try {
    return await tableChecksums(client);
  } finally {
    await client.$disconnect();
  }
}
