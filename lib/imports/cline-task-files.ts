// A Cline, Roo Code or Kilo Code task folder as a followed folder sees it: the stamp of a task (its
// API history with the side files the import reads beside it) and the task a changed side file
// belongs to. lib/imports/cline-tasks.ts imports what this stamps.
import { stat } from "node:fs/promises";
import path from "node:path";
import { realInside } from "@/lib/files/inside";
import { clineHistoryOf, isClineTaskHistory, TASK_SIDE_FILES } from "@/lib/importers/cline/paths";

type Stamp = { size: number; mtimeMs: number; ctimeMs: number };

/**
 * What a followed task looks like now: its api_conversation_history.json with ui_messages.json,
 * task_metadata.json and history_item.json (sizes summed, latest times), so that usage written to
 * ui_messages.json after the response (it is, once the request ends) changes the stamp of the
 * file the sync compares. A side file that is missing, or leads out of `within`, adds nothing.
 */
export async function clineTaskStamp(apiFile: string, own: Stamp, within?: string): Promise<Stamp> {
  if (!isClineTaskHistory(apiFile)) return own;
  const stamp = { ...own };
  const folder = path.dirname(apiFile);
  await Promise.all(
    TASK_SIDE_FILES.map(async (name) => {
      const file = path.join(folder, name);
      if (
        within !== undefined &&
        !(await realInside(file, within).then(
          () => true,
          () => false,
        ))
      )
        return;
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return;
      stamp.size += info.size;
      stamp.mtimeMs = Math.max(stamp.mtimeMs, info.mtimeMs);
      stamp.ctimeMs = Math.max(stamp.ctimeMs, info.ctimeMs);
    }),
  );
  return stamp;
}

/**
 * The API history a changed path belongs to, for a followed folder: a task's ui_messages.json,
 * task_metadata.json or history_item.json is its api_conversation_history.json (when there is
 * one). Null: not a task's side file (the path is looked at as it is).
 */
export async function clineTranscriptOf(changed: string): Promise<string | null> {
  const history = clineHistoryOf(changed);
  if (!history) return null;
  const there = await stat(history).then(
    (info) => info.isFile(),
    () => false,
  );
  return there ? history : null;
}
