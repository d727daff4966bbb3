// `threadline serve`: Threadline from its package (scripts/pack.mjs makes it), on an embedded SQLite
// database in the user's data folder. What `npm start` does in a clone, less what a clone needs
// and a package has done already (install, generate, build): this machine's platform is checked
// against the package's, the database is migrated without the Prisma CLI (scripts/sqlite-migrate.mjs),
// then the production build is served by scripts/server.mjs, with its checks, as `npm start` does.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { allowedHostsNote, authGate } from "./auth-gate.mjs";
import { commandLine, root } from "./lib.mjs";
import { currentPlatform, platformProblem } from "./platform.mjs";
import { serve } from "./server.mjs";
import { migrateSqlite } from "./sqlite-migrate.mjs";

commandLine("threadline serve", "usage: threadline serve (HOST and PORT choose the address, DATABASE_URL the database)", {});

/** @param {string} message */
function refuse(message) {
  console.error(`[threadline] ${message}`);
  process.exit(1);
}

// Before anything native loads: the package's better-sqlite3 runs only where it was compiled.
const packedOn = path.join(root, "platform.json");
if (existsSync(packedOn)) {
  const problem = platformProblem(JSON.parse(readFileSync(packedOn, "utf8")), currentPlatform());
  if (problem) refuse(problem);
}

const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
const gate = authGate({ host, auth: process.env.THREADLINE_AUTH });
if (!gate.ok) refuse(gate.message.replaceAll("\n", "\n[threadline] "));
if (gate.warning) console.warn(`[threadline] warning: ${gate.warning}`);

/** The user's data folder for Threadline (XDG Base Directory: a relative XDG_DATA_HOME is ignored). */
function dataFolder() {
  const xdg = process.env.XDG_DATA_HOME?.trim();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".local", "share"), "threadline");
}

/** The SQLite file: DATABASE_URL's (relative to the folder the command runs in), else the data folder's. */
function databaseFile() {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) return path.join(dataFolder(), "threadline.db");
  if (/^postgres(ql)?:\/\//.test(url)) {
    refuse(
      "DATABASE_URL is a PostgreSQL URL: the package serves SQLite only, as it has no Prisma CLI to migrate PostgreSQL. Run Threadline from a clone for PostgreSQL (docs/postgresql.md).",
    );
  }
  if (!url.startsWith("file:")) refuse(`DATABASE_URL must start with file: (a SQLite file); got "${url.split(":")[0]}:..."`);
  return path.resolve(url.slice("file:".length));
}

const file = databaseFile();
// Transcripts and API tokens live in it: the folder is the user's alone when it is made here.
mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
try {
  const { applied, changed } = migrateSqlite(file, path.join(root, "prisma", "migrations"));
  if (applied.length > 0) console.log(`[threadline] applied ${applied.length} database migration(s)`);
  for (const name of changed) console.warn(`[threadline] warning: migration ${name} has changed since it was applied to this database`);
} catch (error) {
  refuse(error instanceof Error ? error.message : String(error));
}
process.env.DATABASE_URL = `file:${file}`;
console.log(`[threadline] database: ${file}`);

// The app finds the files it reads at run time (its worker threads, the migrations) from the
// working folder, as in a clone: here that is the package's.
process.chdir(root);
// Next.js's settings as the build resolved them, which Next.js takes from this variable as its
// standalone server.js does: loading next.config.mjs itself needs webpack, which the standalone
// output leaves out. What next.config.mjs reads when the server starts is read now, from it.
const { config: built } = JSON.parse(readFileSync(path.join(root, ".next", "required-server-files.json"), "utf8"));
const { default: nextConfig } = await import(pathToFileURL(path.join(root, "next.config.mjs")).href);
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify({ ...built, compress: nextConfig("phase-production-server").compress });
console.log(`[threadline] serving http://${host}:${port}`);
const note = allowedHostsNote(host, process.env.THREADLINE_ALLOWED_HOSTS);
if (note) console.log(`[threadline] ${note}`);
await serve({ dev: false, host, port });
