import type { JsonValue } from "@/lib/domain/types";
import { partsOf } from "./turn-content";
import type { CompactionTurn, References } from "./types";

/**
 * Every file path and tool name the turns mention, deduplicated, in order of first appearance.
 * co-cli's summariser prompt asks to preserve "file paths and tool names referenced"; this is the
 * list a summary is checked against. Within a turn: its files, images, its tool, the tools it
 * calls, then the paths its parts (tool arguments, text, results) and its content mention.
 */
export function collectReferences(turns: CompactionTurn[]): References {
  const paths = new OrderedSet();
  const tools = new OrderedSet();
  for (const turn of turns) {
    // Content usually repeats a text part or a result: read each distinct text once.
    const read = new Set<string>();
    const scan = (text: string) => {
      if (read.has(text)) return;
      read.add(text);
      for (const path of pathsInText(text)) paths.add(path);
    };
    for (const file of turn.files) paths.add(file);
    for (const image of turn.images) paths.add(image);
    // On a tool turn, the tool that produced it; on a PAL turn, the tool the exchange ran under
    // (analyze, codereview, debug...): its only record of which tools ran, so a summary keeps it too.
    if (turn.toolName) tools.add(turn.toolName);
    for (const part of partsOf(turn)) {
      switch (part.type) {
        case "tool_call":
          tools.add(part.name);
          if (part.arguments !== undefined) pathsInArguments(part.arguments, null, paths, 0);
          break;
        case "tool_result":
          if (typeof part.content === "string") scan(part.content);
          else pathsInJson(part.content, paths, 0);
          break;
        case "text":
        case "thinking":
          scan(part.text);
          break;
        case "image":
          if (typeof part.path === "string") paths.add(part.path);
          break;
        default:
          break;
      }
    }
    scan(turn.content);
  }
  return { paths: paths.values(), tools: tools.values() };
}

/**
 * The references a summary lost: paths not found verbatim in it, tool names not found as whole
 * words (so "read" is not satisfied by "read_file").
 */
export function missingReferences(refs: References, summaryText: string): References {
  return {
    paths: refs.paths.filter((path) => !summaryText.includes(path)),
    tools: refs.tools.filter((tool) => !containsWord(summaryText, tool)),
  };
}

function containsWord(text: string, word: string): boolean {
  if (word === "") return true;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at > 0 ? text[at - 1]! : "";
    const after = text[at + word.length] ?? "";
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}
const WORD_CHAR = /^\w$/;

// ---------------------------------------------------------------------------------------------
// Paths in tool arguments

/** Argument keys whose string values are paths whatever they look like. */
const PATH_KEYS = new Set([
  "file_path",
  "filepath",
  "path",
  "notebook_path",
  "paths",
  "file",
  "files",
  "file_paths",
  "filename",
  "dir",
  "directory",
  "target_file",
  "source",
  "destination",
]);
/** Argument keys holding a shell command, whose text may name files. */
const COMMAND_KEYS = new Set(["command", "cmd", "script"]);
const MAX_DEPTH = 8;

function pathsInArguments(value: JsonValue, key: string | null, out: OrderedSet, depth: number): void {
  if (depth > MAX_DEPTH || value === null) return;
  if (typeof value === "string") {
    const normalisedKey = key?.toLowerCase() ?? "";
    const candidate = value.trim();
    if (PATH_KEYS.has(normalisedKey) && candidate !== "" && !/[\r\n]/.test(candidate) && !URL_START.test(candidate)) out.add(candidate);
    else if (COMMAND_KEYS.has(normalisedKey)) for (const path of pathsInText(value)) out.add(path);
    else if (looksLikePath(candidate)) out.add(candidate);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) pathsInArguments(item, key, out, depth + 1);
    return;
  }
  if (typeof value === "object") {
    for (const [childKey, child] of Object.entries(value)) pathsInArguments(child, childKey, out, depth + 1);
  }
}

/** String values inside a JSON tool result, read as text. */
function pathsInJson(value: JsonValue, out: OrderedSet, depth: number): void {
  if (depth > MAX_DEPTH || value === null) return;
  if (typeof value === "string") for (const path of pathsInText(value)) out.add(path);
  else if (Array.isArray(value)) for (const item of value) pathsInJson(item, out, depth + 1);
  else if (typeof value === "object") for (const child of Object.values(value)) pathsInJson(child, out, depth + 1);
}

// ---------------------------------------------------------------------------------------------
// Paths in text

// Segment characters: ASCII word characters, . @ + - and the brackets of Next.js route segments.
const SEG = String.raw`[\w.@+\-\[\]()]`;
// A path may not start right after these (it would be the middle of a word, URL or longer path).
const NOT_AFTER = String.raw`(?<![\w.@+\-/\\~:])`;
const RELATIVE = String.raw`(?:\.{1,2}/)*[\w@+\-\[(]${SEG}*(?:/${SEG}+)*/${SEG}*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w@+\-/\\])`;
const ABSOLUTE = String.raw`/${SEG}+(?:/${SEG}+)+`;
const HOME = String.raw`~/${SEG}+(?:/${SEG}+)*`;
const WINDOWS = String.raw`(?<![A-Za-z0-9])[A-Za-z]:\\(?:[\w.@+\-\[\]()]+\\)*[\w.@+\-\[\]()]+`;
const PATH_IN_TEXT = new RegExp(`${WINDOWS}|${NOT_AFTER}(?:${HOME}|${ABSOLUTE}|${RELATIVE})`, "g");
const WHOLE_PATH = new RegExp(`^(?:${WINDOWS}|${HOME}|${ABSOLUTE}|${RELATIVE})$`);
// Schemes (https://, file://, git+ssh://) and www. hosts: their paths are not files on disk.
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]]*|\bwww\.[^\s<>"'`)\]]*/gi;
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;
// "example.com/docs/page.html" without a scheme is still a web address.
const HOST_FIRST = /^(?:[\w-]+\.)+(?:com|org|net|io|dev|app|ai|co|edu|gov|uk|de)\//i;

/**
 * Paths a text mentions: relative paths with a slash and an extension (src/auth/session.ts),
 * absolute (/home/x/y) and home (~/x) paths, Windows paths (C:\x\y). URLs, version numbers
 * (1.2.3), dates (2024/01/02) and ratios (200/200) are not paths; trailing punctuation is dropped.
 * @internal exported for its tests
 */
export function pathsInText(text: string): string[] {
  if (!text || !/[/\\]/.test(text)) return [];
  const withoutUrls = text.replace(URL_IN_TEXT, " ");
  const found: string[] = [];
  for (const match of withoutUrls.matchAll(PATH_IN_TEXT)) {
    const path = tidy(match[0]);
    if (path && /[A-Za-z]/.test(path.replace(/^[A-Za-z]:\\/, "")) && !HOST_FIRST.test(path)) found.push(path);
  }
  return found;
}

/**
 * Whether a whole string is a path by the same rules as text.
 * @internal exported for its tests
 */
export function looksLikePath(value: string): boolean {
  if (!value || value.length > 1024 || URL_START.test(value)) return false;
  const tidied = tidy(value);
  return tidied === value && WHOLE_PATH.test(value) && /[A-Za-z]/.test(value.replace(/^[A-Za-z]:\\/, "")) && !HOST_FIRST.test(value);
}

/** Drops trailing punctuation and a bracket the path opened or closed only by accident of prose. */
function tidy(raw: string): string {
  let path = raw;
  for (;;) {
    const last = path[path.length - 1];
    if (last === undefined) return path;
    if (".,;:!?'\"`".includes(last)) path = path.slice(0, -1);
    else if (last === ")" && count(path, "(") < count(path, ")")) path = path.slice(0, -1);
    else if (last === "]" && count(path, "[") < count(path, "]")) path = path.slice(0, -1);
    else break;
  }
  // "(src/a.ts)": the prose's parenthesis, not the path's.
  if ((path.startsWith("(") && count(path, "(") > count(path, ")")) || (path.startsWith("[") && count(path, "[") > count(path, "]"))) {
    path = path.slice(1);
  }
  return path;
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/** Insertion-ordered set of non-empty strings. */
class OrderedSet {
  private readonly seen = new Set<string>();
  add(value: string): void {
    if (value !== "") this.seen.add(value);
  }
  values(): string[] {
    return [...this.seen];
  }
}
