/**
 * The databases tests run on: a migrated template per run, and a copy of it per test file (and
 * per switchToFreshDatabase). SQLite by default (files under .tmp/vitest); PostgreSQL when
 * THREADLINE_TEST_POSTGRES_URL names a server (an admin connection URL, e.g.
 * postgresql://threadline:threadline@127.0.0.1:5432/postgres): throwaway databases named
 * tl_<run>_..., created from the template and dropped when the run ends.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrateDatabase } from "../db/engine/migrate";

export const TEMPLATE_DIR = path.resolve(".tmp", "vitest");
const RUN_FILE = path.join(TEMPLATE_DIR, "run-id");

export function testPostgresUrl(): string | null {
  return process.env.THREADLINE_TEST_POSTGRES_URL?.trim() || null;
}

function databaseUrl(admin: string, name: string): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(admin: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Global setup: the migrated template. Answers the teardown. */
export async function prepareTemplate(): Promise<() => Promise<void>> {
  rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  const admin = testPostgresUrl();
  if (!admin) {
    migrateDatabase(`file:${path.join(TEMPLATE_DIR, "template.db")}`);
    return async () => {};
  }
  const run = `tl_${Date.now().toString(36)}_${process.pid}`;
  writeFileSync(RUN_FILE, run);
  await withAdmin(admin, (client) => client.query(`CREATE DATABASE "${run}_template"`));
  migrateDatabase(databaseUrl(admin, `${run}_template`));
  return () =>
    withAdmin(admin, async (client) => {
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${run}\\_%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
}

/** A new database, a copy of the template, and its URL. */
export async function createTestDatabase(): Promise<string> {
  const admin = testPostgresUrl();
  if (!admin) {
    const file = path.join(TEMPLATE_DIR, `${randomUUID()}.db`);
    copyFileSync(path.join(TEMPLATE_DIR, "template.db"), file);
    return `file:${file}`;
  }
  const run = readFileSync(RUN_FILE, "utf8").trim();
  const name = `${run}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await withAdmin(admin, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${run}_template"`));
  return databaseUrl(admin, name);
}
