// npm run db:copy's work, apart from its process (scripts/db-copy.ts): the command line in, the
// copy made and reported, an exit code back. Tests call it in their own process.
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { CopyError, copyDatabase, settleCopiedDatabase } from "@/lib/db/engine/copy";
import { createDatabase } from "@/lib/db/engine/create-client";
import { migrateDatabase, pendingMigrations } from "@/lib/db/engine/migrate";
import { isPostgresUrl } from "@/lib/db/engine/postgres-adapter";
import { resolveDatabaseUrl, sqliteFilePath } from "@/lib/env/database-url";
import { readCommandLine } from "./lib.mjs";

const USAGE = "usage: npm run db:copy -- --from <file:... or postgresql://...> --to <postgresql://... or file:...>";

/** Where the copy reports: progress and the result as lines on stdout, refusals and failures on stderr. */
export type CopyOutput = { log(line: string): void; err(line: string): void };

/** A refusal or failure: its message and exit code (2 for bad usage, 1 otherwise). */
class Refused extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2 = 1,
  ) {
    super(message);
  }
}

/** A URL without its password, for messages. */
function shown(url: string): string {
  if (!isPostgresUrl(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/** The copy `args` ask for; 0, 1 (the copy was refused or failed: nothing written) or 2 (bad usage). */
export async function dbCopyMain(args: string[], output: CopyOutput): Promise<number> {
  try {
    await copyAsAsked(args, output);
    return 0;
  } catch (error) {
    if (error instanceof Refused) {
      output.err(`db:copy: ${error.message}`);
      return error.code;
    }
    if (error instanceof CopyError) {
      output.err(`db:copy: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

async function copyAsAsked(args: string[], output: CopyOutput): Promise<void> {
  const line = readCommandLine({ from: { type: "string" }, to: { type: "string" } }, { args });
  if (!line.ok) throw new Refused(`${line.error}\n${USAGE}`, 2);
  const { from: rawFrom, to: rawTo } = line.values as { from?: string; to?: string };
  if (!rawFrom || !rawTo) throw new Refused(`--from and --to are both required\n${USAGE}`, 2);
  let from: string;
  let to: string;
  try {
    from = resolveDatabaseUrl(rawFrom);
    to = resolveDatabaseUrl(rawTo);
  } catch (error) {
    throw new Refused(`${(error as Error).message.replace("DATABASE_URL", "--from and --to")}\n${USAGE}`, 2);
  }
  if (from === to) throw new Refused("--from and --to name the same database", 2);
  if (!isPostgresUrl(from) && !existsSync(sqliteFilePath(from)))
    throw new Refused(`--from: no SQLite database at ${sqliteFilePath(from)}`, 2);

  const source = createDatabase(from);
  const destination = createDatabase(to);
  try {
    const pending = await pendingMigrations(source).catch((error: Error) => {
      throw new Refused(`--from: cannot read ${shown(from)}: ${error.message}`);
    });
    if (pending.length > 0) {
      throw new Refused(
        `--from: the source database is not at the current schema (${pending.length} migration(s) not applied, e.g. ${pending[0]}). Run DATABASE_URL=<source> npm run db:migrate first.`,
      );
    }
    output.log(`[db:copy] migrating ${shown(to)}`);
    try {
      migrateDatabase(to);
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message)
        .trim()
        .split("\n")
        .slice(-3)
        .join(" ");
      throw new Refused(`--to: could not prepare ${shown(to)}: ${stderr}`);
    }

    const started = performance.now();
    let lastLine = 0;
    const report = await copyDatabase(source, destination, {
      onProgress: ({ table, rows, total }) => {
        const now = performance.now();
        if (rows === total || now - lastLine > 2_000) {
          lastLine = now;
          output.log(`[db:copy] ${table}: ${rows.toLocaleString("en")}/${total.toLocaleString("en")}`);
        }
      },
    });
    output.log(`[db:copy] ${isPostgresUrl(to) ? "VACUUM (ANALYZE)" : "ANALYZE"} on the copy`);
    await settleCopiedDatabase(destination);
    const seconds = (performance.now() - started) / 1000;
    output.log(`\n${"table".padEnd(16)} ${"rows".padStart(10)}  checksum (source = copy)`);
    for (const entry of report)
      output.log(
        `${entry.table.padEnd(16)} ${entry.rows.toLocaleString("en").padStart(10)}  ${entry.sourceChecksum} = ${entry.copiedChecksum}`,
      );
    const total = report.reduce((sum, entry) => sum + entry.rows, 0);
    output.log(
      `\ncopied ${total.toLocaleString("en")} rows from ${shown(from)} to ${shown(to)} in ${seconds.toFixed(1)} s; every table verified by count and checksum`,
    );
  } finally {
    await Promise.all([source.$disconnect(), destination.$disconnect()]);
  }
}
