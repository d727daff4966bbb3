/**
 * VS Code and its forks (Cursor, Windsurf, VSCodium, ...) keep every extension's data under
 * `<config>/<editor>/User/globalStorage/<extension>/` and every workspace's under
 * `User/workspaceStorage/<hash>/`: thousands of files of no conversation. Inside them only the
 * agents' own files are transcripts:
 * - `globalStorage/<extension>/tasks/<task id>/api_conversation_history.json` of Cline, Roo Code
 *   and Kilo Code (its task's other files are read beside it);
 * - Cursor's `globalStorage/state.vscdb` and `workspaceStorage/<hash>/state.vscdb`.
 * Pure, so that isTranscriptPath (./types) can use it.
 */

import { API_HISTORY_FILE, EXTENSION_FOLDERS } from "./cline/paths";

/**
 * Whether `filePath`, inside an editor's storage folder, is a transcript; null when it is not
 * inside one (the other rules decide).
 */
export function editorStorageTranscript(filePath: string): boolean | null {
  const parts = filePath.split(/[\\/]/);
  for (let i = parts.length - 2; i >= 1; i--) {
    if (parts[i - 1] !== "User" || (parts[i] !== "globalStorage" && parts[i] !== "workspaceStorage")) continue;
    // Cursor's own folder, or its server's over SSH (~/.cursor-server/data/User).
    const cursor = (parts[i - 2] ?? "").toLowerCase() === "cursor" || (parts[i - 2] === "data" && parts[i - 3] === ".cursor-server");
    const rest = parts.slice(i + 1);
    if (parts[i] === "workspaceStorage") return cursor && rest.length === 2 && rest[1] === "state.vscdb";
    if (rest.length === 1) return cursor && rest[0] === "state.vscdb";
    return rest.length === 4 && Object.hasOwn(EXTENSION_FOLDERS, rest[0]!) && rest[1] === "tasks" && rest[3] === API_HISTORY_FILE;
  }
  return null;
}

/** Folders never walked or watched anywhere: dependencies and repositories' own data. */
const SKIPPED_NAMES = new Set(["node_modules", ".git"]);

/**
 * Whether a folder walk (and a followed folder's watch) leaves the folder `dirPath` out unlisted:
 * node_modules and .git anywhere; inside an editor's storage, every folder that cannot hold an
 * agent's transcript (another extension's, a workspace's extension folders, a task's subfolders),
 * so that following ~/.config/Code/User/globalStorage lists and watches the agents' task folders only.
 */
export function isLeftOutFolder(dirPath: string): boolean {
  const parts = dirPath.split(/[\\/]/).filter((part) => part !== "");
  if (SKIPPED_NAMES.has(parts.at(-1) ?? "")) return true;
  for (let i = parts.length - 1; i >= 1; i--) {
    if (parts[i - 1] !== "User" || (parts[i] !== "globalStorage" && parts[i] !== "workspaceStorage")) continue;
    const rest = parts.slice(i + 1);
    if (parts[i] === "workspaceStorage") return rest.length > 1;
    if (rest.length === 0) return false;
    if (!Object.hasOwn(EXTENSION_FOLDERS, rest[0]!)) return true;
    return rest.length > 3 || (rest.length >= 2 && rest[1] !== "tasks");
  }
  return false;
}
