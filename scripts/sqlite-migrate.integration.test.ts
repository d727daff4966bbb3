/**
 * The package's migrations (scripts/sqlite-migrate.mjs) against `prisma migrate deploy`, the way a
 * clone migrates (npm start), on real SQLite files, in both directions: a database either made is
 * complete and current for the other, with the same tables, triggers and migration records.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "@/lib/db/engine/migrate";
import { ON_POSTGRES } from "@/lib/testing/source-sync";
import { committedMigrations, migrateSqlite } from "./sqlite-migrate.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS = path.join(ROOT, "prisma", "migrations");
const work = mkdtempSync(path.join(os.tmpdir(), "threadline-migrate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Row = {
  id: string;
  checksum: string;
  finished_at: string | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: string | null;
  started_at: string;
  applied_steps_count: number;
};

/** Everything but the data: each table, index and trigger with its SQL, and the migration records. */
function read(file: string): { schema: unknown[]; rows: Row[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      schema: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all(),
      rows: db.prepare(`SELECT * FROM "_prisma_migrations" ORDER BY "migration_name"`).all() as Row[],
    };
  } finally {
    db.close();
  }
}

/** The records as both tools write them: ids and times differ from run to run, nothing else. */
function records(rows: Row[]) {
  return rows.map(({ id: _id, started_at: _started, finished_at: _finished, ...rest }) => rest);
}

const prismaDeploy = (file: string) => migrateDatabase(`file:${file}`, ROOT);
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

// SQLite's own migrations: the PostgreSQL pass has nothing to add.
describe.skipIf(ON_POSTGRES)("the package's SQLite migrations", () => {
  const byPrisma = path.join(work, "prisma.db");
  const byPackage = path.join(work, "package.db");

  it("make the database prisma migrate deploy makes, with the same records, which Prisma finds current", () => {
    prismaDeploy(byPrisma);
    expect(migrateSqlite(byPackage, MIGRATIONS)).toEqual({ applied: names(), changed: [] });
    const prisma = read(byPrisma);
    const ours = read(byPackage);
    expect(ours.schema).toEqual(prisma.schema);
    expect(records(ours.rows)).toEqual(records(prisma.rows));
    for (const row of ours.rows) {
      expect(row.started_at).toMatch(TIMESTAMP);
      expect(row.finished_at).toMatch(TIMESTAMP);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Prisma applies nothing more to the package's database.
    prismaDeploy(byPackage);
    expect(read(byPackage).rows).toEqual(ours.rows);
  }, 60_000);

  it("apply nothing to a database Prisma migrated, and find nothing changed", () => {
    const before = read(byPrisma);
    expect(migrateSqlite(byPrisma, MIGRATIONS)).toEqual({ applied: [], changed: [] });
    expect(read(byPrisma)).toEqual(before);
  });

  it("take over half-way from Prisma, and hand back half-way to it", () => {
    const all = names();
    const half = path.join(work, "first-half");
    for (const name of all.slice(0, 10)) cpSync(path.join(MIGRATIONS, name), path.join(half, name), { recursive: true });
    // The package's first half, then Prisma's second.
    const mixed = path.join(work, "mixed.db");
    expect(migrateSqlite(mixed, half).applied).toEqual(all.slice(0, 10));
    prismaDeploy(mixed);
    expect(read(mixed).schema).toEqual(read(byPrisma).schema);
    expect(records(read(mixed).rows)).toEqual(records(read(byPrisma).rows));
    // An older package on a newer database refuses it, changing nothing.
    const before = read(mixed);
    expect(() => migrateSqlite(mixed, half)).toThrow(/has migrations this Threadline does not know \(20261/);
    expect(read(mixed)).toEqual(before);
  }, 60_000);

  it("record a migration that fails as Prisma does, and refuse the database until a person looks at it", () => {
    const folder = path.join(work, "broken");
    const [first] = names();
    cpSync(path.join(MIGRATIONS, first!), path.join(folder, first!), { recursive: true });
    // A statement that succeeds, then one that fails: the database is left half-way, as with Prisma.
    mkdirSync(path.join(folder, "29990101000000_broken"));
    writeFileSync(
      path.join(folder, "29990101000000_broken", "migration.sql"),
      'CREATE TABLE "Half" ("id" INTEGER);\nINSERT INTO "NoSuchTable" VALUES (1);\n',
    );
    const file = path.join(work, "broken.db");
    expect(() => migrateSqlite(file, folder)).toThrow(/migration 29990101000000_broken failed on .*no such table: NoSuchTable/);
    const failed = read(file).rows.find((row) => row.migration_name === "29990101000000_broken");
    expect(failed).toMatchObject({
      finished_at: null,
      applied_steps_count: 0,
      rolled_back_at: null,
      logs: expect.stringContaining("NoSuchTable"),
    });
    expect(() => migrateSqlite(file, folder)).toThrow(/has a migration that failed part-way \(29990101000000_broken\)/);
  });
});

function names(): string[] {
  return committedMigrations(MIGRATIONS).map((m) => m.name);
}
