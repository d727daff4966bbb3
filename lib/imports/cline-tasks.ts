import "server-only";
// A Cline, Roo Code or Kilo Code task folder on disk (lib/importers/cline/paths.ts): its
// api_conversation_history.json read with ui_messages.json, task_metadata.json and history_item.json
// beside it, imported with the pure parser (lib/importers/cline). How a followed folder stamps a
// task, and which task a changed side file belongs to, are in ./cline-task-files.ts.
import { createHash } from "node:crypto";
import path from "node:path";
import { openForReading, RefusedPathError } from "@/lib/files/inside";
import { previousImport, type FileImportReport } from "@/lib/db/imports/imports";
import { storeParsedSource } from "@/lib/db/imports/turn-stream-import";
import { parseClineTask, variantByContent, type ClineTaskDocument } from "@/lib/importers/cline";
import { clineTaskPath, HISTORY_ITEM_FILE, TASK_METADATA_FILE, UI_MESSAGES_FILE } from "@/lib/importers/cline/paths";
import { documentTooLarge, megabytes, type ImportLimits } from "@/lib/importers/long-lines";
import { ImportFormatError, type SkippedEntry } from "@/lib/importers/types";

/** The file's text, unless it has more than `maxBytes` (then only its size); null when it is not there. */
async function readSized(file: string, maxBytes: number, within?: string): Promise<{ text: string | null; size: number } | null> {
  let handle;
  try {
    handle = await openForReading(file, within);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return { text: null, size };
    return { text: await handle.readFile("utf8"), size };
  } finally {
    await handle.close();
  }
}

/**
 * A task folder as a ClineTaskDocument: the API history (required, up to the document limit) and
 * the side files that are there, all together up to the document limit. A side file that is
 * missing is fine; one that is not JSON (being written), too large, or a link out of `within` is
 * left out and reported.
 */
async function assembleClineTask(
  apiFile: string,
  limits: ImportLimits,
  within?: string,
): Promise<{ doc: ClineTaskDocument; skipped: SkippedEntry[] }> {
  const where = clineTaskPath(apiFile);
  if (!where) throw new ImportFormatError(`${apiFile}: not in a task folder (tasks/<task id>/api_conversation_history.json)`);
  const api = await readSized(apiFile, limits.maxDocumentBytes, within);
  if (!api) throw new ImportFormatError(`${apiFile}: no such file`);
  if (api.text === null) throw new ImportFormatError(documentTooLarge(apiFile, api.size, limits));
  let apiValue: unknown;
  try {
    apiValue = JSON.parse(api.text);
  } catch (error) {
    throw new ImportFormatError(`${apiFile}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  let total = api.size;
  const skipped: SkippedEntry[] = [];
  const folder = path.dirname(apiFile);
  const side = async (name: string): Promise<unknown> => {
    const file = path.join(folder, name);
    try {
      const read = await readSized(file, Math.max(0, limits.maxDocumentBytes - total), within);
      if (!read) return undefined;
      if (read.text === null) {
        skipped.push({
          path: file,
          bytes: read.size,
          reason: `too large (${megabytes(read.size)}) to read with its task's other files within the ${megabytes(limits.maxDocumentBytes)} a document may have (THREADLINE_MAX_DOCUMENT_MB), not read`,
        });
        return undefined;
      }
      total += read.size;
      return JSON.parse(read.text) as unknown;
    } catch (error) {
      if (error instanceof RefusedPathError) skipped.push({ path: file, reason: error.reason });
      else if (error instanceof SyntaxError) skipped.push({ path: file, reason: "not valid JSON (being written?), not read" });
      else throw error;
      return undefined;
    }
  };
  const ui = await side(UI_MESSAGES_FILE);
  const metadata = await side(TASK_METADATA_FILE);
  const historyItem = await side(HISTORY_ITEM_FILE);
  const doc: ClineTaskDocument = {
    api: apiValue,
    ...(ui !== undefined ? { ui } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(historyItem !== undefined ? { historyItem } : {}),
    taskId: where.taskId,
    variant: where.variant ?? variantByContent(apiValue),
  };
  return { doc, skipped };
}

/**
 * Imports one task, its API history named by `file`: skipped when exactly this content (the
 * history with its side files) was imported before under `name`, as an OpenCode session is.
 */
export async function importClineTask(file: string, name: string, limits: ImportLimits, within?: string): Promise<FileImportReport> {
  const { doc, skipped } = await assembleClineTask(file, limits, within);
  const text = JSON.stringify(doc);
  const sha256 = createHash("sha256").update(text).digest("hex");
  const previous = await previousImport(sha256, name);
  if (previous) return previous;
  const parsed = parseClineTask(doc, { name });
  return storeParsedSource({ ...parsed, skipped: [...skipped, ...parsed.skipped] }, { name, sha256, size: Buffer.byteLength(text) });
}
