/**
 * Which files of OpenCode's data folder (~/.local/share/opencode) are what, by path alone. Pure,
 * and free of imports, so that isTranscriptPath (../types) can use it.
 *
 * - storage/session/<projectID>/<sessionID>.json: a session record, the one file per session a
 *   folder walk treats as a transcript (the service assembles its messages and parts);
 * - storage/message/<sessionID>/<messageID>.json, storage/part/<messageID>/<partID>.json and the
 *   other storage folders (project, todo, session_share, session_diff, permission): pieces of a
 *   session or side files, never transcripts on their own;
 * - opencode.db (newer builds): every session (../databases.ts knows it by name);
 * - auth.json and mcp-auth.json beside them: credentials, never read.
 * The Kilo CLI, an OpenCode fork, keeps the same files under ~/.local/share/kilo.
 */

const SIDE_FOLDERS = new Set(["message", "part", "project", "todo", "session_share", "session_diff", "permission", "session"]);

export type OpenCodeStoragePath =
  | { kind: "session"; storage: string; sessionId: string }
  | { kind: "message"; storage: string; sessionId: string; messageId: string }
  | { kind: "part"; storage: string; messageId: string }
  | { kind: "side"; storage: string };

function segments(filePath: string): string[] {
  return filePath.split(/[\\/]/);
}

/** The OpenCode storage file `filePath` is, or null when it is not under a `storage/<known folder>/`. */
export function openCodeStoragePath(filePath: string): OpenCodeStoragePath | null {
  const parts = segments(filePath);
  // The last `storage` folder whose next segment is one of OpenCode's: storage/<folder>/<a>[/<b>].
  for (let i = parts.length - 3; i >= 0; i--) {
    if (parts[i] !== "storage" || !SIDE_FOLDERS.has(parts[i + 1]!)) continue;
    const storage = parts.slice(0, i + 1).join("/");
    const rest = parts.slice(i + 1);
    const file = rest.at(-1)!;
    const id = file.endsWith(".json") ? file.slice(0, -".json".length) : null;
    if (rest.length === 3 && rest[0] === "session" && id?.startsWith("ses_")) return { kind: "session", storage, sessionId: id };
    if (rest.length === 3 && rest[0] === "message" && id) return { kind: "message", storage, sessionId: rest[1]!, messageId: id };
    if (rest.length === 3 && rest[0] === "part" && id) return { kind: "part", storage, messageId: rest[1]! };
    return { kind: "side", storage };
  }
  return null;
}

const CREDENTIALS = new Set(["auth.json", "mcp-auth.json"]);

/** A file of OpenCode's data folder that is not a session record (a piece of one, or its credentials): never a transcript on its own. */
export function isOpenCodeSideFile(filePath: string): boolean {
  const parts = segments(filePath);
  if ((parts.at(-2) === "opencode" || parts.at(-2) === "kilo") && CREDENTIALS.has(parts.at(-1)!)) return true;
  const found = openCodeStoragePath(filePath);
  return found !== null && found.kind !== "session";
}
