// Helpers for the npm entry points (start, test). Node built-ins only: they run before `npm ci`.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { buildWorkers } from "./build-workers.mjs";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

let stdoutIsData = false;

/**
 * For a command whose standard output is its result (`npm run usage -- --json`): from now on the
 * helpers' progress lines and the output of the tools they run (npm install, prisma generate) go
 * to standard error.
 */
export function keepStdoutForData() {
  stdoutIsData = true;
}

/** A progress line: on stdout, or on stderr after keepStdoutForData(). */
function progress(line) {
  if (stdoutIsData) console.error(line);
  else console.log(line);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: stdoutIsData ? ["inherit", 2, "inherit"] : "inherit",
    ...options,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...options.env },
  });
  if (result.status !== 0) {
    console.error(`\n[threadline] "${[command, ...args].join(" ")}" failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

const bin = (name) => path.join(root, "node_modules", ".bin", name);
export const npx = (name, args, options) => run(bin(name), args, options);

/**
 * Installs dependencies when node_modules is missing or older than the lockfile. `npm install`
 * (which installs the locked versions) rather than `npm ci`: npm 11 leaves other platforms'
 * optional packages out of the lockfile and `npm ci` then refuses it (npm/cli#8320).
 */
export function installDependencies() {
  run("npm", ["install", "--no-audit", "--no-fund"]);
}

export function ensureDependencies() {
  const marker = path.join(root, "node_modules", ".package-lock.json");
  const lock = path.join(root, "package-lock.json");
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  progress("[threadline] installing dependencies...");
  installDependencies();
}

export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma", "postgres", "schema.prisma");

/**
 * The PostgreSQL schema text for a SQLite schema text (prisma/postgres/schema.prisma is written
 * from prisma/schema.prisma, the one source of the models); throws when an expected line is missing.
 */
export function postgresSchema(sqlite) {
  const swaps = [
    [/provider = "sqlite"/, 'provider = "postgresql"'],
    [/output\s+= "\.\.\/lib\/db\/generated"/, 'output       = "../../lib/db/generated-pg"'],
  ];
  let text = sqlite;
  for (const [pattern, replacement] of swaps) {
    if (!pattern.test(text)) throw new Error(`prisma/schema.prisma: expected a line matching ${pattern}`);
    text = text.replace(pattern, replacement);
  }
  return `// GENERATED from prisma/schema.prisma by scripts/postgres-schema.mjs: edit that file, then run\n// npm run db:schema. The models are the same; only the provider and the client's folder differ.\n\n${text}`;
}

/** Whether prisma/postgres/schema.prisma is as prisma/schema.prisma makes it. */
export function postgresSchemaIsCurrent() {
  return readOrEmpty(POSTGRES_SCHEMA) === postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8"));
}

/** Writes prisma/postgres/schema.prisma when it is stale; whether it did. */
export function writePostgresSchema() {
  const wanted = postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8"));
  if (readOrEmpty(POSTGRES_SCHEMA) === wanted) return false;
  writeFileSync(POSTGRES_SCHEMA, wanted);
  return true;
}

function readOrEmpty(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * prisma generate, for SQLite and for PostgreSQL, when a generated client is missing or older
 * than its schema. The PostgreSQL schema is written from the SQLite one first (one source of the
 * models). Both clients are always there: DATABASE_URL picks one at run time.
 */
export function ensurePrismaClient() {
  // In this process: a node process of its own for it was 0.2 s of every start.
  if (writePostgresSchema()) progress("[threadline] wrote prisma/postgres/schema.prisma");
  const clients = [
    {
      generated: path.join(root, "lib", "db", "generated", "client.ts"),
      schema: path.join(root, "prisma", "schema.prisma"),
      url: "file:./data/threadline.db",
    },
    // A URL only picks the schema in prisma.config.ts: generating connects to nothing.
    {
      generated: path.join(root, "lib", "db", "generated-pg", "client.ts"),
      schema: path.join(root, "prisma", "postgres", "schema.prisma"),
      url: "postgresql://localhost/generate",
    },
  ];
  for (const { generated, schema, url } of clients) {
    if (existsSync(generated) && statSync(generated).mtimeMs >= statSync(schema).mtimeMs) continue;
    progress(`[threadline] generating the Prisma client (${path.relative(root, schema)})...`);
    npx("prisma", ["generate"], { env: { DATABASE_URL: url } });
  }
}

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) {
    // The Prisma clients are written by ensurePrismaClient, not edited: a new one is no reason to build again.
    if (name === "generated" || name === "generated-pg" || name.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "next.config.mjs",
  "instrumentation.ts",
  "proxy.ts",
  "package-lock.json",
  "postcss.config.mjs",
  "prisma/schema.prisma",
];

/** next build when there is no production build or a source changed since the last one. */
export function ensureBuild({ force = false } = {}) {
  // The parse worker's bundle (a first sync parses on another core): a fraction of a second when lib/ changed.
  buildWorkers();
  const buildId = path.join(root, ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const newest = Math.max(...BUILD_INPUTS.map((p) => newestMtime(path.join(root, p))));
  if (!force && built > 0 && built >= newest) return;
  progress("[threadline] building the app (next build)...");
  npx("next", ["build"]);
}

/** The SQLite file that DATABASE_URL names (the app's default when unset), as prisma.config.ts resolves it. */
export function databaseFile() {
  const url = process.env.DATABASE_URL?.trim() || "file:data/threadline.db";
  return path.resolve(root, url.slice("file:".length));
}

/** Committed migrations not yet recorded as applied in the database. */
function pendingMigrations(file) {
  const all = readdirSync(path.join(root, "prisma", "migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  if (!existsSync(file)) return all;
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const db = new Database(file, { readonly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return all;
    const applied = new Set(db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL").pluck().all());
    return all.filter((name) => !applied.has(name));
  } finally {
    db.close();
  }
}

/** The Prisma CLI, with the preload that lets it exit when its work is done (lib/db/engine/migrate.ts does the same). */
const prismaArgs = (args) => [
  "--require",
  path.join(root, "scripts", "prisma-cli-timers.cjs"),
  path.join(root, "node_modules", "prisma", "build", "index.js"),
  ...args,
];

const isPostgres = () => /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL?.trim() ?? "");

/** DATABASE_URL without its password, for messages. */
export function shownDatabase() {
  if (!isPostgres()) return path.relative(root, databaseFile()) || databaseFile();
  const url = new URL(process.env.DATABASE_URL.trim());
  if (url.password) url.password = "***";
  return url.toString();
}

/**
 * prisma migrate deploy. On SQLite only when a migration is pending: Prisma's Wasm schema engine
 * cannot migrate a file that another process (a running server) has open. On PostgreSQL always:
 * it is quick when nothing is pending, and instances starting together take turns (Prisma holds
 * an advisory lock while it migrates).
 */
export function ensureMigrated() {
  if (!isPostgres()) {
    const pending = pendingMigrations(databaseFile());
    if (pending.length === 0) return;
    progress(`[threadline] applying ${pending.length} database migration(s) to ${shownDatabase()}...`);
  } else {
    progress(`[threadline] migrating ${shownDatabase()} (prisma migrate deploy)...`);
  }
  const result = spawnSync(process.execPath, prismaArgs(["migrate", "deploy"]), {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (result.status !== 0) {
    console.error(result.stderr);
    const hint = isPostgres()
      ? "Check that the server is running, the database exists and DATABASE_URL's user may create tables in it."
      : "If a Threadline server is running on this database, stop it and run npm start again.";
    console.error(`[threadline] Migrating ${shownDatabase()} failed. ${hint}`);
    process.exit(result.status ?? 1);
  }
}

/**
 * The command line, read with node:util's parseArgs (strict: an unknown option or a missing value
 * is refused). On a mistake it prints what is wrong and `usage`, and exits with 2.
 */
export function commandLine(name, usage, options, settings = {}) {
  const parsed = readCommandLine(options, settings);
  if (parsed.ok) return parsed;
  console.error(`${name}: ${parsed.error}\n${usage}`);
  process.exit(2);
}

/** commandLine without the exit, for a command that runs in a test's process too: the mistake, or the values. */
export function readCommandLine(options, { positionals = false, args = process.argv.slice(2) } = {}) {
  try {
    return { ok: true, ...parseArgs({ args, options, allowPositionals: positionals, strict: true }) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
