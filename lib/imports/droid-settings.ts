// A Factory Droid session's side file: `<id>.settings.json` beside `<id>.jsonl`, holding the model and
// the session's running token totals (docs/formats.md §19, "Factory Droid"). Read here, for
// import-file.ts, and handed to the pure parser (lib/importers/factory-droid); never imported alone.
import { createHash } from "node:crypto";
import { openForReading, RefusedPathError } from "@/lib/files/inside";
import { longRecordEntry, type ImportLimits } from "@/lib/importers/long-lines";
import type { SkippedEntry } from "@/lib/importers/types";
import { droidSettingsPath } from "@/lib/importers/factory-droid/paths";

/**
 * What the side file held: its parsed value and the SHA-256 of its bytes (the import's digest
 * takes it in, so that totals rewritten in place make the session import again), or why it was
 * left out. Null when there is none.
 */
export type DroidSettingsRead = { value: unknown; sha256: string } | { skipped: SkippedEntry } | null;

/**
 * Reads the settings beside a Droid transcript: opened only inside `within` when given (a link
 * out is refused unread), no larger than a line may be (THREADLINE_MAX_LINE_MB), parsed as JSON.
 */
export async function readDroidSettings(transcriptPath: string, limits: ImportLimits, within?: string): Promise<DroidSettingsRead> {
  const path = droidSettingsPath(transcriptPath);
  if (!path) return null;
  let handle;
  try {
    handle = await openForReading(path, within);
  } catch (error) {
    if (error instanceof RefusedPathError) return { skipped: { path, reason: error.reason } };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > limits.maxLineBytes) return { skipped: longRecordEntry(path, size, limits) };
    const bytes = await handle.readFile();
    try {
      return { value: JSON.parse(bytes.toString("utf8")) as unknown, sha256: createHash("sha256").update(bytes).digest("hex") };
    } catch {
      return { skipped: { path, reason: "the session's settings file is not valid JSON (its token totals are left out)" } };
    }
  } finally {
    await handle.close();
  }
}

/** The import's digest of a transcript together with its settings: either changing makes it another import. */
export function withSettingsDigest(transcriptSha256: string, settingsSha256: string): string {
  return createHash("sha256").update(`${transcriptSha256}\u0000droid-settings\u0000${settingsSha256}`).digest("hex");
}
