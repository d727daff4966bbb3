import path from "node:path";

/** Where the embedded database lives when DATABASE_URL is not set. */
const DEFAULT_DATABASE_FILE = path.join("data", "threadline.db");

/**
 * Normalises DATABASE_URL to an absolute `file:` URL for SQLite, so the Prisma CLI, the app
 * server and scripts started from any directory all open the same file.
 */
export function resolveDatabaseUrl(raw: string | undefined, cwd: string = process.cwd()): string {
  const value = raw?.trim() || `file:${DEFAULT_DATABASE_FILE}`;
  if (/^postgres(ql)?:\/\//.test(value)) return value;
  if (!value.startsWith("file:")) {
    throw new Error(`DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL); got "${value.split(":")[0]}:..."`);
  }
  const filePath = value.slice("file:".length);
  return `file:${path.resolve(cwd, filePath)}`;
}

/** The filesystem path of a SQLite `file:` URL. */
export function sqliteFilePath(url: string): string {
  return url.slice("file:".length);
}
