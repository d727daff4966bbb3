// npm run db:copy -- --from <url> --to <url>
// Copies a whole Threadline database into an empty one, typically the embedded SQLite file into
// PostgreSQL when a team outgrows one machine:
//   npm run db:copy -- --from file:data/threadline.db --to postgresql://user:pass@host:5432/threadline
// The destination is migrated first, then written in one transaction that commits only when every
// table read back has the source's row count and checksum. Stop the servers writing to the source
// first: rows written during the copy are not in it (the source is read in one snapshot).
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { commandLine, ensureDependencies, ensurePrismaClient } from "./lib.mjs";

ensureDependencies();
ensurePrismaClient();

const { CopyError, copyDatabase, settleCopiedDatabase } = await import("@/lib/db/engine/copy");
const { createDatabase } = await import("@/lib/db/engine/create-client");
const { resolveDatabaseUrl, sqliteFilePath } = await import("@/lib/env/database-url");
const { migrateDatabase, pendingMigrations } = await import("@/lib/db/engine/migrate");
const { isPostgresUrl } = await import("@/lib/db/engine/postgres-adapter");

const USAGE = "usage: npm run db:copy -- --from <file:... or postgresql://...> --to <postgresql://... or file:...>";

function fail(message: string, code = 1): never {
  console.error(`db:copy: ${message}`);
  process.exit(code);
}

/** A URL without its password, for messages. */
function shown(url: string): string {
  if (!isPostgresUrl(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

const { values } = commandLine("db:copy", USAGE, { from: { type: "string" }, to: { type: "string" } });
const rawFrom = values.from;
const rawTo = values.to;
if (!rawFrom || !rawTo) fail(`--from and --to are both required\n${USAGE}`, 2);
let from: string;
let to: string;
try {
  from = resolveDatabaseUrl(rawFrom);
  to = resolveDatabaseUrl(rawTo);
} catch (error) {
  fail(`${(error as Error).message.replace("DATABASE_URL", "--from and --to")}\n${USAGE}`, 2);
}
if (from === to) fail("--from and --to name the same database", 2);
if (!isPostgresUrl(from) && !existsSync(sqliteFilePath(from))) fail(`--from: no SQLite database at ${sqliteFilePath(from)}`, 2);

const source = createDatabase(from);
const destination = createDatabase(to);
try {
  const pending = await pendingMigrations(source).catch((error: Error) => fail(`--from: cannot read ${shown(from)}: ${error.message}`));
  if (pending.length > 0) {
    fail(
      `--from: the source database is not at the current schema (${pending.length} migration(s) not applied, e.g. ${pending[0]}). Run DATABASE_URL=<source> npm run db:migrate first.`,
    );
  }
  console.log(`[db:copy] migrating ${shown(to)}`);
  try {
    migrateDatabase(to);
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message)
      .trim()
      .split("\n")
      .slice(-3)
      .join(" ");
    fail(`--to: could not prepare ${shown(to)}: ${stderr}`);
  }

  const started = performance.now();
  let lastLine = 0;
  const report = await copyDatabase(source, destination, {
    onProgress: ({ table, rows, total }) => {
      const now = performance.now();
      if (rows === total || now - lastLine > 2_000) {
        lastLine = now;
        console.log(`[db:copy] ${table}: ${rows.toLocaleString("en")}/${total.toLocaleString("en")}`);
      }
    },
  });
  console.log(`[db:copy] ${isPostgresUrl(to) ? "VACUUM (ANALYZE)" : "ANALYZE"} on the copy`);
  await settleCopiedDatabase(destination);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${"table".padEnd(16)} ${"rows".padStart(10)}  checksum (source = copy)`);
  for (const entry of report)
    console.log(
      `${entry.table.padEnd(16)} ${entry.rows.toLocaleString("en").padStart(10)}  ${entry.sourceChecksum} = ${entry.copiedChecksum}`,
    );
  const total = report.reduce((sum, entry) => sum + entry.rows, 0);
  console.log(
    `\ncopied ${total.toLocaleString("en")} rows from ${shown(from)} to ${shown(to)} in ${seconds.toFixed(1)} s; every table verified by count and checksum`,
  );
} catch (error) {
  if (error instanceof CopyError) fail(error.message);
  throw error;
} finally {
  await Promise.all([source.$disconnect(), destination.$disconnect()]);
}
