import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { databaseKind, type Database, type DatabaseKind } from "./create-client";
import { sqliteFilePath } from "../../env/database-url";

/**
 * How to run the Prisma CLI: node with the preload that lets it exit as soon as its work is done
 * on PostgreSQL (scripts/prisma-cli-timers.cjs; scripts/lib.mjs does the same).
 * @internal exported for its tests
 */
export function prismaCliArgs(projectRoot: string = process.cwd()): string[] {
  return [
    "--require",
    path.join(projectRoot, "scripts", "prisma-cli-timers.cjs"),
    path.join(projectRoot, "node_modules", "prisma", "build", "index.js"),
  ];
}

/**
 * Applies the committed migrations with `prisma migrate deploy` (Prisma's Wasm schema engine
 * through the driver adapter in prisma.config.ts). Creates the database file's folder first.
 */
export function migrateDatabase(url: string, projectRoot: string = process.cwd()): void {
  if (url.startsWith("file:")) mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  execFileSync(process.execPath, [...prismaCliArgs(projectRoot), "migrate", "deploy"], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * The committed migrations of a database kind, oldest first.
 * @internal exported for its tests
 */
export function committedMigrations(kind: DatabaseKind, projectRoot: string = process.cwd()): string[] {
  const folder =
    kind === "postgres" ? path.join(projectRoot, "prisma", "postgres", "migrations") : path.join(projectRoot, "prisma", "migrations");
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Committed migrations the database has not applied (all of them for a database never migrated). */
export async function pendingMigrations(client: Database): Promise<string[]> {
  const kind = databaseKind(client);
  const committed = committedMigrations(kind);
  let applied: Set<string>;
  try {
    const rows = await client.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`,
    );
    applied = new Set(rows.map((row) => row.migration_name));
  } catch {
    return committed; // no _prisma_migrations table
  }
  return committed.filter((name) => !applied.has(name));
}
