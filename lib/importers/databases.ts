/**
 * The SQLite databases agents keep their sessions in, known by file name alone. Pure and free of
 * imports, so that isTranscriptPath (./types) can use it. Which agent a database really is, is
 * decided by its tables when it is opened (lib/imports/agent-databases.ts): a name only says that
 * a folder walk should open it.
 *
 * - `opencode.db` (OpenCode 1.2 on, `opencode-<channel>.db` for preview channels) and `kilo.db`
 *   (the Kilo CLI, an OpenCode fork; `kilo-<channel>.db`): docs/formats.md §4, "OpenCode";
 * - `crush.db` in a project's `.crush` folder (Crush);
 * - `sessions.db` in Goose's `sessions` folder (Goose 1.10 on);
 * - `state.vscdb` (Cursor's global and per-workspace key-value stores).
 *
 * A database's `-wal` and `-shm` files are its write-ahead log and index: a write lands in the
 * log long before the database file changes, so a change to either is a change of the database.
 */

/** The file names each agent gives its database. */
export const DATABASE_NAMES = {
  opencode: /^opencode(-[\w.-]+)?\.db$/,
  kilo: /^kilo(-[\w.-]+)?\.db$/,
  crush: /^crush\.db$/,
  goose: /^sessions\.db$/,
  cursor: /^state\.vscdb$/,
} as const;

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).at(-1) ?? filePath;
}

/** Whether `filePath` is named as an agent's SQLite database. */
export function isAgentDatabase(filePath: string): boolean {
  const name = baseName(filePath);
  return Object.values(DATABASE_NAMES).some((pattern) => pattern.test(name));
}

/** The database whose write-ahead log or shared-memory index `filePath` is, else null. */
export function agentDatabaseOf(filePath: string): string | null {
  for (const suffix of ["-wal", "-shm"]) {
    if (filePath.endsWith(suffix) && isAgentDatabase(filePath.slice(0, -suffix.length))) return filePath.slice(0, -suffix.length);
  }
  return null;
}

/** The agent an OpenCode-schema database or storage folder belongs to: the Kilo CLI's are under a `kilo` data folder or named kilo*.db. */
export function openCodeFamilyOf(filePath: string): "opencode" | "kilo-code" {
  const parts = filePath.split(/[\\/]/);
  if (DATABASE_NAMES.kilo.test(parts.at(-1) ?? "")) return "kilo-code";
  const storage = parts.lastIndexOf("storage");
  return storage > 0 && parts[storage - 1] === "kilo" ? "kilo-code" : "opencode";
}
