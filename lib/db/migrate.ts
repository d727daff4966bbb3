import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sqliteFilePath } from "./database-url";

/**
 * Applies the committed migrations with `prisma migrate deploy` (Prisma's Wasm schema engine
 * through the driver adapter in prisma.config.ts). Creates the database file's folder first.
 */
export function migrateDatabase(url: string, projectRoot: string = process.cwd()): void {
  if (url.startsWith("file:")) mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  const prismaCli = path.join(projectRoot, "node_modules", "prisma", "build", "index.js");
  execFileSync(process.execPath, [prismaCli, "migrate", "deploy"], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}
