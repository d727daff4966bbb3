import "server-only";
import { db } from "../engine/client";
import { forgetSourceFileRows, saveSourceFileRows, sourceFileRowsUnder, type SourceFileRow } from "./dialect-files";

export type { SourceFileRow };

/**
 * What the syncs of followed folders (lib/sources) remember of each file, kept in the database so
 * that a restarted server skips unchanged files unread: size, modification time, and why its
 * content could not be imported (null once it was).
 */
export async function sourceFilesUnder(folder: string): Promise<SourceFileRow[]> {
  return sourceFileRowsUnder(await db(), folder.endsWith("/") ? folder : `${folder}/`);
}

export async function saveSourceFiles(rows: SourceFileRow[]): Promise<void> {
  if (rows.length > 0) await saveSourceFileRows(await db(), rows);
}

export async function forgetSourceFiles(paths: string[]): Promise<void> {
  if (paths.length > 0) await forgetSourceFileRows(await db(), paths);
}
