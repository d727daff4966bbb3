/**
 * Unified diffs (git diff, `diff -u`, the patches agents record for their edits), recognised so
 * the page can colour them as a terminal would. Pure, linear in the text.
 */

/** A hunk header: `@@ -12,7 +12,9 @@` (counts optional, a section name may follow). */
const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m;

/** Whether `text` reads as a unified diff: it has a hunk header line. */
export function looksLikeUnifiedDiff(text: string): boolean {
  return text.includes("@@ -") && HUNK_HEADER.test(text);
}

export type DiffLineKind = "file" | "hunk" | "added" | "removed" | "context";

/** What one line of a unified diff is: a file header, a hunk header, an added, removed or context line. */
export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith("+++ ") || line.startsWith("--- ") || line.startsWith("diff --git ") || line.startsWith("index ")) return "file";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return "context";
}
