/**
 * Pi's edit tool reports its change as a numbered diff (`details.diff`): each line is a marker
 * (`+`, `-` or a space), the line number padded to a common width, a space and the text; a line
 * ` <padding> ...` stands for skipped unchanged lines. Removed and context lines carry the old
 * file's number, added lines the new file's. This turns it into a unified diff (hunks with
 * `@@ -a,b +c,d @@` headers), the form the thread page colours. Pure, linear.
 */

type DiffLine = { mark: "+" | "-" | " "; number: number; text: string };

/** Marker, padding, number, one space, text. A plain scan, no regular expression over the whole line. */
function readLine(line: string): DiffLine | "gap" | null {
  const mark = line[0];
  if (mark !== "+" && mark !== "-" && mark !== " ") return null;
  let i = 1;
  while (line[i] === " ") i++;
  if (line.slice(i) === "...") return "gap";
  const start = i;
  while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
  if (i === start || (i < line.length && line[i] !== " ")) return null;
  return { mark, number: Number(line.slice(start, i)), text: line.slice(i + 1) };
}

/** The unified diff of a Pi edit diff for `path`, or null when the text is not in Pi's numbered form. */
export function unifiedDiffOf(piDiff: string, path: string | null): string | null {
  const hunks: DiffLine[][] = [];
  let current: DiffLine[] = [];
  for (const raw of piDiff.split("\n")) {
    const line = readLine(raw);
    if (line === null) return null;
    if (line === "gap") {
      if (current.length > 0) hunks.push(current);
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) hunks.push(current);
  if (hunks.length === 0) return null;
  const name = path ?? "file";
  const out = [`--- a/${name.replace(/^\/+/, "")}`, `+++ b/${name.replace(/^\/+/, "")}`];
  let offset = 0; // new line number minus old, before the hunk
  for (const hunk of hunks) {
    const oldCount = hunk.filter((l) => l.mark !== "+").length;
    const newCount = hunk.filter((l) => l.mark !== "-").length;
    const first = hunk[0]!;
    const oldStart = first.mark === "+" ? first.number - offset : first.number;
    const newStart = first.mark === "+" ? first.number : first.number + offset;
    // An empty side names the line before it, as unified diffs do.
    out.push(`@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`);
    for (const line of hunk) out.push(`${line.mark}${line.text}`);
    offset += newCount - oldCount;
  }
  return out.join("\n");
}
