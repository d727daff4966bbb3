// Applies prisma/migrations/*/migration.sql to a SQLite file as `prisma migrate deploy` does, for the
// package (`threadline serve`), which has no Prisma CLI: that is a development tool, and its schema
// engine alone is more than the rest of the package. The migrations are recorded in Prisma's own
// table, with its columns, timestamps and checksums (the SHA-256 of the file), so a database
// migrated here and one migrated by `npm start` are interchangeable, in both directions
// (scripts/sqlite-migrate.integration.test.ts). Node built-ins and better-sqlite3 only.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The table exactly as Prisma's schema engine creates it on SQLite (its text is kept in sqlite_master). */
const MIGRATIONS_TABLE = `CREATE TABLE "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** A timestamp as Prisma writes them on SQLite: RFC 3339, milliseconds, "+00:00". */
const timestamp = () => new Date().toISOString().replace("Z", "+00:00");

/**
 * The committed migrations in `folder`, oldest first (their folder names sort by date), each with
 * its SQL and Prisma's checksum of it.
 * @param {string} folder
 * @returns {{ name: string, sql: string, checksum: string }[]}
 */
export function committedMigrations(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(folder, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(folder, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

/**
 * Brings the SQLite database `file` (created when missing) up to the migrations in `folder`, and
 * says which it applied. Refuses, changing nothing, a database that has a migration this folder
 * does not know (made by a newer Threadline) or one that failed half-way (Prisma's P3009: a person
 * must look at it). Like Prisma, a migration runs outside a transaction (a migration that rebuilds a
 * table turns foreign keys off, which SQLite ignores inside one) and a failure is recorded in the
 * table's `logs`.
 * @param {string} file
 * @param {string} folder
 * @returns {{ applied: string[], changed: string[] }} applied: what this call applied; changed:
 *   migrations applied earlier whose file has changed since (Prisma tolerates it; worth a warning)
 */
export function migrateSqlite(file, folder) {
  const migrations = committedMigrations(folder);
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const db = new Database(file);
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!hasTable) db.exec(MIGRATIONS_TABLE);
    /** @type {{ migration_name: string, checksum: string, finished_at: string | null }[]} */
    const rows = db
      .prepare(`SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL`)
      .all();
    const failed = rows.filter((row) => row.finished_at === null).map((row) => row.migration_name);
    if (failed.length > 0) {
      throw new Error(
        `the database ${file} has a migration that failed part-way (${failed.join(", ")}): look at its "logs" in _prisma_migrations, repair the database, then mark it with prisma migrate resolve from a clone`,
      );
    }
    const known = new Map(migrations.map((migration) => [migration.name, migration]));
    const unknown = rows.map((row) => row.migration_name).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(
        `the database ${file} has migrations this Threadline does not know (${unknown.join(", ")}): it was made by a newer version; serve it with that version, or use another database`,
      );
    }
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const changed = migrations.filter((m) => done.has(m.name) && done.get(m.name) !== m.checksum).map((m) => m.name);
    const applied = [];
    for (const { name, sql, checksum } of migrations) {
      if (done.has(name)) continue;
      const id = randomUUID();
      db.prepare(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, 0)`,
      ).run(id, checksum, name, timestamp());
      try {
        db.exec(sql);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        db.prepare(`UPDATE "_prisma_migrations" SET "logs" = ? WHERE "id" = ?`).run(message, id);
        throw new Error(`migration ${name} failed on ${file}: ${message}`);
      }
      db.prepare(`UPDATE "_prisma_migrations" SET "applied_steps_count" = "applied_steps_count" + 1, "finished_at" = ? WHERE "id" = ?`).run(
        timestamp(),
        id,
      );
      applied.push(name);
    }
    return { applied, changed };
  } finally {
    db.close();
  }
}
