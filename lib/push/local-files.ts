// The files a laptop pushes: the transcripts under the followed folders (THREADLINE_SOURCES, or
// the agents' own folders under the home folder), found by the same walk the server's own
// following uses, the pieces an OpenCode session is made of, and the side files of a Cline, Roo
// Code or Kilo Code task (its usage is in ui_messages.json).
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { isAgentDatabase } from "@/lib/importers/databases";
import { openCodeStoragePath } from "@/lib/importers/opencode/paths";
import { isClineTaskHistory, TASK_SIDE_FILES } from "@/lib/importers/cline/paths";
import { transcriptFiles, type WalkProblem } from "@/lib/imports/transcript-files";

/**
 * A file to push: `path` on this laptop, `name` under its home folder (with `/`); a file of lines
 * (JSON lines, an Aider history) grows at its end and is sent from where the server's copy ends,
 * a document is sent whole when it changes.
 */
export type LocalFile = { path: string; name: string; kind: "json-lines" | "text-lines" | "document"; size: number; mtimeMs: number };

/** What a walk found that is not pushed, and why. */
export type LeftOut = { path: string; reason: string };

/** How a file grows, by its name: appended to (.jsonl, Aider's .md) or written anew. */
function kindOf(name: string): LocalFile["kind"] {
  if (/\.jsonl$/i.test(name)) return "json-lines";
  if (/\.md$/i.test(name)) return "text-lines";
  return "document";
}

/** The files under `folders` to push, an OpenCode session's pieces before its record (its import reads them). */
export async function* localFiles(home: string, folders: string[], leftOut: (entry: LeftOut) => void): AsyncGenerator<LocalFile> {
  for (const folder of folders) {
    const name = path.relative(home, folder);
    if (name.startsWith("..") || path.isAbsolute(name)) {
      leftOut({ path: folder, reason: "push sends what is under your home folder, and this folder is not" });
      continue;
    }
    const exists = await stat(folder).then(
      (info) => info.isDirectory(),
      () => false,
    );
    if (!exists) continue;
    const onProblem = (problem: WalkProblem) => leftOut({ path: problem.path, reason: problem.reason });
    for await (const found of transcriptFiles(folder, { onProblem, onSkip: onProblem })) {
      if (isAgentDatabase(found.path)) {
        leftOut({ path: found.path, reason: "an agent's database is not pushed yet (files of JSON and JSON lines are)" });
        continue;
      }
      if (openCodeStoragePath(found.path)?.kind === "session") yield* openCodePieces(home, found.path, leftOut);
      if (isClineTaskHistory(found.path)) yield* taskSideFiles(home, found.path);
      const file = await localFile(home, found.path);
      if (file) yield file;
    }
  }
}

async function localFile(home: string, file: string): Promise<LocalFile | null> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  const name = path.relative(home, file).split(path.sep).join("/");
  return { path: file, name, kind: kindOf(name), size: info.size, mtimeMs: info.mtimeMs };
}

/** The side files of a task folder that are there (ui_messages.json, task_metadata.json, history_item.json), before its API history. */
async function* taskSideFiles(home: string, history: string): AsyncGenerator<LocalFile> {
  for (const name of TASK_SIDE_FILES) {
    const file = await localFile(home, path.join(path.dirname(history), name));
    if (file) yield file;
  }
}

/** The message and part files of an OpenCode JSON-tree session (storage/message/<session>/, storage/part/<message>/). */
async function* openCodePieces(home: string, record: string, leftOut: (entry: LeftOut) => void): AsyncGenerator<LocalFile> {
  const where = openCodeStoragePath(record);
  if (where?.kind !== "session") return;
  const listJson = async (dir: string) =>
    (
      await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") leftOut({ path: dir, reason: error.code ?? "unreadable" });
        return [] as string[];
      })
    )
      .filter((entry) => entry.endsWith(".json"))
      .sort();
  const messages = path.join(where.storage, "message", where.sessionId);
  for (const message of await listJson(messages)) {
    const parts = path.join(where.storage, "part", message.slice(0, -".json".length));
    for (const part of await listJson(parts)) {
      const file = await localFile(home, path.join(parts, part));
      if (file) yield file;
    }
    const file = await localFile(home, path.join(messages, message));
    if (file) yield file;
  }
}
