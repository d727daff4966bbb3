/**
 * Which files of a Cline, Roo Code or Kilo Code task folder are what, by path alone (docs/formats.md
 * §13, "Cline, Roo Code and Kilo Code"). Pure, and free of imports, so that isTranscriptPath (../types) can use it.
 *
 * The three extensions keep one folder per task, `<storage>/tasks/<taskId>/`, where `<storage>` is
 * VS Code's globalStorage folder of the extension (`…/User/globalStorage/<publisher.extension>`) or,
 * for Cline's CLI and JetBrains plugin, `~/.cline/data`:
 * - api_conversation_history.json: the conversation as sent to the model; the one file a folder
 *   walk treats as the task's transcript (the import reads the others beside it);
 * - ui_messages.json, task_metadata.json, context_history.json, history_item.json (Roo Code),
 *   settings.json (Cline): side files of the task, never transcripts on their own;
 * - claude_messages.json: the API history's name in the first Cline builds (Roo Code renames it on
 *   reading), a side file here;
 * - beside the tasks: `tasks/_index.json` (Roo Code's history index), and in `~/.cline/data`
 *   `state/taskHistory.json`, `globalState.json`, `secrets.json` (API keys: never read),
 *   `workspaces/<hash>/workspaceState.json`, `settings/cline_mcp_settings.json`.
 */

export type ClineVariant = "cline" | "roo-code" | "kilo-code";

/** The extension folder (VS Code lowercases ids in globalStorage) each variant keeps its tasks under. */
export const EXTENSION_FOLDERS: Readonly<Record<string, ClineVariant>> = {
  "saoudrizwan.claude-dev": "cline",
  "rooveterinaryinc.roo-cline": "roo-code",
  "kilocode.kilo-code": "kilo-code",
};

export const API_HISTORY_FILE = "api_conversation_history.json";
export const UI_MESSAGES_FILE = "ui_messages.json";
export const TASK_METADATA_FILE = "task_metadata.json";
export const HISTORY_ITEM_FILE = "history_item.json";

/** The files of a task folder the import reads beside its API history (a change to one is a change of the task). */
export const TASK_SIDE_FILES = [UI_MESSAGES_FILE, TASK_METADATA_FILE, HISTORY_ITEM_FILE] as const;

/** Files of a task folder, or beside the tasks, that are never transcripts (whatever folder they are in: no other agent uses these names). */
const SIDE_FILE_NAMES = new Set([
  ...TASK_SIDE_FILES,
  "context_history.json",
  "claude_messages.json",
  "taskHistory.json",
  "globalState.json",
  "secrets.json",
  "workspaceState.json",
  "cline_mcp_settings.json",
  "mcp_settings.json",
]);

type ClineTaskPath = {
  /** The `tasks` folder holding the task's folder. */
  tasksFolder: string;
  taskId: string;
  /** From the extension folder the tasks are in; null when the folder is none of the three (decided by content then). */
  variant: ClineVariant | null;
  /** The file's name in the task folder. */
  file: string;
};

function segments(filePath: string): string[] {
  return filePath.split(/[\\/]/);
}

/** A task id as the extensions make them: Cline's Date.now() digits, Roo Code's and Kilo Code's UUIDs. */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The task folder `filePath` is in: `<…>/tasks/<taskId>/<file>`, with the variant its extension
 * folder names (`saoudrizwan.claude-dev` or `~/.cline/data`: Cline; `rooveterinaryinc.roo-cline`:
 * Roo Code; `kilocode.kilo-code`: Kilo Code; anything else: null). Null when the path has no such shape.
 */
export function clineTaskPath(filePath: string): ClineTaskPath | null {
  const parts = segments(filePath);
  if (parts.length < 3) return null;
  const file = parts.at(-1)!;
  const taskId = parts.at(-2)!;
  if (parts.at(-3) !== "tasks" || !TASK_ID.test(taskId) || file === "") return null;
  const owner = (parts.at(-4) ?? "").toLowerCase();
  const variant = EXTENSION_FOLDERS[owner] ?? (owner === "data" && parts.at(-5) === ".cline" ? "cline" : null);
  return { tasksFolder: parts.slice(0, -2).join("/"), taskId, variant, file };
}

/** An API history in a task folder: the transcript a folder walk imports with its side files. */
export function isClineTaskHistory(filePath: string): boolean {
  return clineTaskPath(filePath)?.file === API_HISTORY_FILE;
}

/** A file of a task folder (or beside the tasks) that is never a transcript on its own. */
export function isClineSideFile(filePath: string): boolean {
  const parts = segments(filePath);
  const name = parts.at(-1)!;
  if (SIDE_FILE_NAMES.has(name)) return true;
  // Roo Code's history index, tasks/_index.json.
  return name === "_index.json" && parts.at(-2) === "tasks";
}

/** A file name (a watcher reports names alone) that is a task's side file: its changes are its task's. */
export function isClineTaskSideName(name: string): boolean {
  return (TASK_SIDE_FILES as readonly string[]).includes(name);
}

/** The API history of the task whose side file `filePath` is (ui_messages.json, task_metadata.json, history_item.json), else null. */
export function clineHistoryOf(filePath: string): string | null {
  const where = clineTaskPath(filePath);
  if (!where || !(TASK_SIDE_FILES as readonly string[]).includes(where.file)) return null;
  const parts = segments(filePath);
  const separator = filePath.includes("/") || !filePath.includes("\\") ? "/" : "\\";
  return [...parts.slice(0, -1), API_HISTORY_FILE].join(separator);
}
