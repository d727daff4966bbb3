/**
 * VS Code and its forks (Cursor, Windsurf, VSCodium, ...) keep every extension's data under
 * `<config>/<editor>/User/globalStorage/<extension>/` and every workspace's under
 * `User/workspaceStorage/<hash>/`: thousands of files of no conversation. Inside them only the
 * agents' own files are transcripts:
 * - `globalStorage/<extension>/tasks/<task id>/api_conversation_history.json` of Cline, Roo Code
 *   and Kilo Code (its task's other files are read beside it);
 * - Cursor's `globalStorage/state.vscdb` and `workspaceStorage/<hash>/state.vscdb`.
 * Pure and free of imports, so that isTranscriptPath (./types) can use it.
 */

/** The extension folders of the agents whose tasks Threadline reads, and the format each imports as. */
export const TASK_EXTENSIONS = {
  "saoudrizwan.claude-dev": "cline",
  "rooveterinaryinc.roo-cline": "roo-code",
  "kilocode.kilo-code": "kilo-code",
} as const;

const TASK_FILE = "api_conversation_history.json";

/**
 * Whether `filePath`, inside an editor's storage folder, is a transcript; null when it is not
 * inside one (the other rules decide).
 */
export function editorStorageTranscript(filePath: string): boolean | null {
  const parts = filePath.split(/[\\/]/);
  for (let i = parts.length - 2; i >= 1; i--) {
    if (parts[i - 1] !== "User" || (parts[i] !== "globalStorage" && parts[i] !== "workspaceStorage")) continue;
    const editor = parts[i - 2] ?? "";
    const rest = parts.slice(i + 1);
    if (parts[i] === "workspaceStorage") return editor === "Cursor" && rest.length === 2 && rest[1] === "state.vscdb";
    if (rest.length === 1) return editor === "Cursor" && rest[0] === "state.vscdb";
    return rest.length === 4 && Object.hasOwn(TASK_EXTENSIONS, rest[0]!) && rest[1] === "tasks" && rest[3] === TASK_FILE;
  }
  return null;
}
