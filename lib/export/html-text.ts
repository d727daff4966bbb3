/** The small pieces the HTML export is written with: every string escaped, folds as <details>. */
import { stripAnsi } from "@/lib/domain/display/ansi";
import { diffLineKind } from "@/lib/domain/display/diff";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML text or an attribute's value: nothing in it is markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Past these, a text starts folded (as the thread page folds long Markdown). */
const LONG_CHARS = 2_000;
const LONG_LINES = 30;

export function isLong(text: string): boolean {
  return text.length > LONG_CHARS || text.split("\n", LONG_LINES + 1).length > LONG_LINES;
}

/** Plain text as a terminal shows it, escape codes dropped (an empty text says so). */
export function preText(text: string, className = "plain"): string {
  if (text === "") return `<p class="note">(empty)</p>`;
  return `<pre class="${className}">${escapeHtml(stripAnsi(text))}</pre>`;
}

/** A unified diff, each line coloured as git colours it. */
export function diffText(text: string): string {
  if (text === "") return `<p class="note">(empty)</p>`;
  const lines = stripAnsi(text)
    .split("\n")
    .map((line) => `<span class="diff-${diffLineKind(line)}">${escapeHtml(line)}</span>`);
  return `<pre class="plain diff">${lines.join("\n")}</pre>`;
}

/** A fold: closed unless `open`; its summary is HTML already escaped. */
export function fold(
  summary: string,
  body: string,
  { open = false, className = "fold" }: { open?: boolean; className?: string } = {},
): string {
  return `<details class="${className}"${open ? " open" : ""}><summary>${summary}</summary><div class="fold-body">${body}</div></details>`;
}

/** "(1,234 characters)" beside a fold's label. */
export function sizeNote(characters: string): string {
  return `<span class="note">(${characters})</span>`;
}
