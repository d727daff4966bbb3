/**
 * Edits as diffs a person reads: Codex's apply_patch format split into files (each a unified-diff
 * style text that lib/domain/display/diff.ts colours), and an edit given as old and new text (Claude Code's
 * Edit and MultiEdit, OpenCode's, Pi's and Copilot CLI's edit, Gemini CLI's replace) as removed and
 * added lines between the lines they share. Pure; linear in the text.
 */

type PatchAction = "add" | "update" | "delete";

/** One file of a patch: its path (and new path when moved), and its lines as a diff ("" for a deletion). */
export type PatchFile = { path: string; action: PatchAction; moveTo: string | null; diff: string };

const FILE_HEADER = /^\*\*\* (Add|Update|Delete) File: (.*)$/;
const MOVE_TO = /^\*\*\* Move to: (.*)$/;

/**
 * The files of a Codex patch ("*** Begin Patch" … "*** End Patch"), in order. Lines of an added
 * file are its content with "+" in front; an update's hunks keep their "@@" headers and " ", "-"
 * and "+" lines as written. Null when the text has no file header at all (not such a patch).
 */
export function parseApplyPatch(text: string): PatchFile[] | null {
  const files: PatchFile[] = [];
  let file: PatchFile | null = null;
  let lines: string[] = [];
  const close = () => {
    if (file) file.diff = lines.join("\n");
    file = null;
    lines = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = FILE_HEADER.exec(line);
    if (header) {
      close();
      file = { path: header[2]!.trim(), action: header[1]!.toLowerCase() as PatchAction, moveTo: null, diff: "" };
      files.push(file);
      continue;
    }
    if (line.startsWith("*** Begin Patch") || line.startsWith("*** End Patch")) {
      close();
      continue;
    }
    if (!file) continue;
    const move = MOVE_TO.exec(line);
    if (move) (file as PatchFile).moveTo = move[1]!.trim();
    else if (line !== "*** End of File") lines.push(line);
  }
  close();
  return files.length > 0 ? files : null;
}

/** Lines of shared context shown around a change, as `diff -u` shows three. */
const CONTEXT_LINES = 3;

/**
 * An edit of `oldText` into `newText` as diff lines: the lines both start and end with are context
 * (three at most on each side), the rest removed then added. Not a minimal diff (that is not linear),
 * but what an edit tool's call says: these lines became those.
 * @internal exported for its tests
 */
export function editDiff(oldText: string, newText: string): string {
  const before = oldText === "" ? [] : oldText.split("\n");
  const after = newText === "" ? [] : newText.split("\n");
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  const lines: string[] = [];
  for (const line of before.slice(Math.max(0, head - CONTEXT_LINES), head)) lines.push(` ${line}`);
  for (const line of before.slice(head, before.length - tail)) lines.push(`-${line}`);
  for (const line of after.slice(head, after.length - tail)) lines.push(`+${line}`);
  for (const line of before.slice(before.length - tail, Math.min(before.length, before.length - tail + CONTEXT_LINES)))
    lines.push(` ${line}`);
  return lines.join("\n");
}

/** Several edits of one file as one diff, each under a hunk header naming it ("@@ edit 2 of 3 @@"). */
export function editsDiff(edits: readonly { oldText: string; newText: string }[]): string {
  if (edits.length === 1) return editDiff(edits[0]!.oldText, edits[0]!.newText);
  return edits.map((edit, i) => `@@ edit ${i + 1} of ${edits.length} @@\n${editDiff(edit.oldText, edit.newText)}`).join("\n");
}
