// `npm start`'s look at the database before it would start the seed script (scripts/lib.mjs
// demoSeedingSettled): settled only where scripts/seed.ts --once would leave the database as it is.
import { copyFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { TEMPLATE_DIR, testPostgresUrl } from "@/lib/testing/test-database";
import { demoSeedingSettled } from "./lib.mjs";

const saved = { url: process.env.DATABASE_URL, demo: process.env.THREADLINE_DEMO_DATA };
afterEach(() => {
  process.env.DATABASE_URL = saved.url;
  if (saved.demo === undefined) delete process.env.THREADLINE_DEMO_DATA;
  else process.env.THREADLINE_DEMO_DATA = saved.demo;
});

/** A migrated SQLite file of this test's own, named by DATABASE_URL. */
function freshSqlite(name: string): string {
  const file = path.join(TEMPLATE_DIR, `start-seeding-${process.pid}-${name}.db`);
  copyFileSync(path.join(TEMPLATE_DIR, "template.db"), file);
  process.env.DATABASE_URL = `file:${file}`;
  return file;
}

function write(file: string, sql: string): void {
  const db = new Database(file);
  db.exec(sql);
  db.close();
}

const THREAD = `INSERT INTO "Thread" ("id", "toolName", "createdAt", "lastUpdatedAt") VALUES ('t1', 'claude-code', 0, 0)`;

describe.skipIf(testPostgresUrl() !== null)("demoSeedingSettled", () => {
  it("leaves a new or empty database to the seed script", () => {
    process.env.DATABASE_URL = `file:${path.join(TEMPLATE_DIR, "start-seeding-missing.db")}`;
    expect(demoSeedingSettled()).toBe(false);
    freshSqlite("empty");
    expect(demoSeedingSettled()).toBe(false);
  });

  it("skips the script for a database seeded already, whatever THREADLINE_DEMO_DATA says", () => {
    const file = freshSqlite("seeded");
    write(file, `INSERT INTO "AppSetting" ("key", "value") VALUES ('demoSeededAt', '2026-11-29T00:00:00Z')`);
    expect(demoSeedingSettled()).toBe(true);
    process.env.THREADLINE_DEMO_DATA = "on";
    expect(demoSeedingSettled()).toBe(true);
  });

  it("skips it for a database holding a thread, unless THREADLINE_DEMO_DATA=on asks for the demo threads", () => {
    const file = freshSqlite("thread");
    write(file, THREAD);
    expect(demoSeedingSettled()).toBe(true);
    process.env.THREADLINE_DEMO_DATA = "off";
    expect(demoSeedingSettled()).toBe(true);
    process.env.THREADLINE_DEMO_DATA = " On ";
    expect(demoSeedingSettled()).toBe(false);
  });

  it("leaves PostgreSQL to the script", () => {
    process.env.DATABASE_URL = "postgresql://threadline@127.0.0.1:5432/threadline";
    expect(demoSeedingSettled()).toBe(false);
  });
});
