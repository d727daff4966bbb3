/**
 * Reads an Aider chat history line by line into entries: run headers, prompt lines, status lines
 * (one entry per status message, continuation lines included), reply text and blank lines.
 * Pure and linear: each line is looked at a bounded number of times, no regular expression can
 * backtrack over a line.
 *
 * What tells the kinds apart is how Aider writes them (aider/io.py `append_chat_history`): prompt
 * lines (`#### `) and status lines (`> `) always end with two spaces (a Markdown line break),
 * reply text is written as the model gave it. So in a file that has those breaks, a `#### Step 1`
 * heading or a `> quote` inside a reply stays reply text. A file whose trailing spaces were
 * stripped (an editor, a copy) has no breaks at all: then every `#### ` / `> ` line counts as
 * prompt / status ("loose" reading).
 */
import type { NumberedLine } from "../types";

export const RUN_HEADER = "# aider chat started at ";
const BREAK = "  ";

export type HistoryEntry =
  | { kind: "run"; line: number; startedAt: string; raw: string }
  | { kind: "prompt"; line: number; text: string; raw: string }
  /** A confirm prompt's answer that Aider logged as a `#### ` line (a group's "all"/"skip" applied to the next file). */
  | { kind: "echo"; line: number; text: string; raw: string }
  /** One status message: `text` without the `> ` and the break; `raw` its lines as written (a multi-line message continues on lines without `> `). */
  | { kind: "status"; line: number; text: string; raw: string[] }
  | { kind: "reply"; line: number; text: string }
  | { kind: "blank"; line: number };

function isRunHeader(text: string): boolean {
  return text.startsWith(RUN_HEADER);
}

function startsPrompt(text: string): boolean {
  return text.startsWith("####") && (text.length === 4 || text[4] === " ");
}

function startsStatus(text: string): boolean {
  return text[0] === ">" && (text.length === 1 || text[1] === " ");
}

/** Whether the file keeps Aider's line breaks (some prompt or status line ends with two spaces). */
function keepsLineBreaks(lines: readonly NumberedLine[]): boolean {
  return lines.some(({ text }) => (startsPrompt(text) || startsStatus(text)) && text.endsWith(BREAK));
}

/** The line without its break (strict) or trailing blanks (loose), then without `prefix`+space or `prefix` alone. */
function body(text: string, prefix: string, strict: boolean): string {
  const bare = strict ? text.slice(0, -BREAK.length) : text.trimEnd();
  return bare.startsWith(`${prefix} `) ? bare.slice(prefix.length + 1) : bare.slice(prefix.length);
}

/** A confirm question with its answer, as `confirm_ask` writes it: `… (Y)es/(N)o… [Yes]: all`. */
function isConfirmAnswer(text: string): boolean {
  return text.includes("(Y)es/(N)o") && text.includes("]: ");
}

export function readHistoryLines(lines: readonly NumberedLine[]): HistoryEntry[] {
  const strict = keepsLineBreaks(lines);
  const entries: HistoryEntry[] = [];
  let previous: HistoryEntry["kind"] | null = null;
  let i = 0;
  while (i < lines.length) {
    const { text, line } = lines[i]!;
    const statusLast: number | null = startsStatus(text) ? statusEnd(lines, i, strict, previous) : null;
    let entry: HistoryEntry;
    if (isRunHeader(text)) {
      entry = { kind: "run", line, startedAt: text.slice(RUN_HEADER.length).trim(), raw: text };
      i += 1;
    } else if (text.trim() === "") {
      entry = { kind: "blank", line };
      i += 1;
    } else if (startsPrompt(text) && (!strict || text.endsWith(BREAK))) {
      const prompt = body(text, "####", strict);
      entry = { kind: isConfirmAnswer(prompt) ? "echo" : "prompt", line, text: prompt, raw: text };
      i += 1;
    } else if (statusLast !== null) {
      const raw: string[] = lines.slice(i, statusLast + 1).map((l) => l.text);
      const last = raw.length - 1;
      const texts: string[] = raw.map((r, k) => (k === 0 ? (r.startsWith("> ") ? r.slice(2) : r.slice(1)) : r));
      texts[last] = strict && raw[last]!.endsWith(BREAK) ? texts[last]!.slice(0, -BREAK.length) : texts[last]!.trimEnd();
      entry = { kind: "status", line, text: texts.join("\n").trimEnd(), raw };
      i = statusLast + 1;
    } else {
      entry = { kind: "reply", line, text };
      i += 1;
    }
    entries.push(entry);
    if (entry.kind !== "blank") previous = entry.kind;
  }
  return entries;
}

function isPlain(text: string): boolean {
  return text.trim() !== "" && !isRunHeader(text) && !startsPrompt(text) && !startsStatus(text);
}

/**
 * The index of the last line of the status message starting at `start`, or null when the line is
 * a reply's blockquote. Only a message's first line has `> `; a message of several lines (a shell
 * command's lines, the usage report's "Cost:" line, an edit error's explanation) ends with the
 * break, and its other lines follow at once, as nothing else does: Aider writes replies and
 * prompts after a blank line. A `> ` line without the break right after reply text is taken for
 * the reply's own blockquote unless a break ends it before the next entry.
 */
function statusEnd(lines: readonly NumberedLine[], start: number, strict: boolean, previous: HistoryEntry["kind"] | null): number | null {
  const text = lines[start]!.text;
  let end = start;
  if (strict && !text.endsWith(BREAK)) {
    const broken = breakEnd(lines, start);
    if (broken === null && previous === "reply" && !text.startsWith("> Tokens: ")) return null;
    end = broken ?? start;
  }
  while (end + 1 < lines.length && isPlain(lines[end + 1]!.text)) end += 1;
  return end;
}

/** The first line after `start` that ends with the break, blank lines allowed, before any prompt, status or run line; else null. */
function breakEnd(lines: readonly NumberedLine[], start: number): number | null {
  for (let j = start + 1; j < lines.length; j += 1) {
    const text = lines[j]!.text;
    if (isRunHeader(text) || startsPrompt(text) || startsStatus(text)) return null;
    if (text.endsWith(BREAK) && text.trim() !== "") return j;
  }
  return null;
}
