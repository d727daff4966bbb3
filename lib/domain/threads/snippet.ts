/**
 * Search snippets: the databases cut a turn's searched text around its matches and mark them with
 * two characters (SNIPPET_OPEN, SNIPPET_CLOSE); parseMarkedSnippet strips them into plain text and
 * [start, end) offsets, and highlightSegments turns those back into pieces a page renders (the
 * marked ones as <mark> elements: text, never HTML). Offsets count UTF-16 code units, as
 * JavaScript strings index.
 */

/** Private-use characters: the text is cleaned of them first (withoutMarkers), so any left are ours. */
export const SNIPPET_OPEN = "\uE000";
export const SNIPPET_CLOSE = "\uE001";
/** What a marker character in the text itself becomes before a snippet is cut. */
const REPLACEMENT = "\uFFFD";

type Highlight = [start: number, end: number];
export type Snippet = { snippet: string; highlights: Highlight[] };

/** One hit of GET /api/search: a turn that matched, with a snippet of the (masked) text search read. */
export type SearchHit = {
  threadId: string;
  threadTitle: string | null;
  turnId: string;
  /** 1-based: the #N the thread page shows. */
  turnIndex: number;
  role: string;
} & Snippet;
export type SearchPage = { items: SearchHit[]; nextCursor: string | null };

/** The longest snippet shown: a match inside one 50 KB "word" (a base64 blob) is cut around. */
const MAX_SNIPPET_CHARS = 320;
const ELLIPSIS = "…";

/** `text` with the marker characters replaced, so that the markers in a snippet can only be the database's. */
export function withoutMarkers(text: string): string {
  return text.replace(/[\uE000\uE001]/g, REPLACEMENT);
}

/**
 * A marked snippet as plain text and the offsets of its marked runs: runs of white space become
 * one space (a snippet is one line), and one longer than `maxChars` is cut around its first match.
 */
export function parseMarkedSnippet(marked: string, maxChars = MAX_SNIPPET_CHARS): Snippet {
  let out = "";
  const highlights: Highlight[] = [];
  let openAt: number | null = null;
  for (const char of marked) {
    if (char === SNIPPET_OPEN) {
      openAt ??= out.length;
    } else if (char === SNIPPET_CLOSE) {
      if (openAt !== null && out.length > openAt) highlights.push([openAt, out.length]);
      openAt = null;
    } else if (/\s/.test(char)) {
      if (out !== "" && !out.endsWith(" ")) out += " ";
    } else {
      out += char;
    }
  }
  if (openAt !== null && out.length > openAt) highlights.push([openAt, out.length]);
  const trimmed = out.trimEnd();
  const kept = highlights.map(([s, e]): Highlight => [s, Math.min(e, trimmed.length)]).filter(([s, e]) => e > s);
  return cutAround({ snippet: trimmed, highlights: mergeTouching(kept) }, maxChars);
}

/** Adjacent runs (two marked words with nothing between) as one. */
function mergeTouching(highlights: Highlight[]): Highlight[] {
  const merged: Highlight[] = [];
  for (const [start, end] of highlights) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * The snippet cut to `maxChars` (plus ellipses) around its first match, offsets moved with it.
 * @internal exported for its tests
 */
export function cutAround({ snippet, highlights }: Snippet, maxChars: number): Snippet {
  if (snippet.length <= maxChars) return { snippet, highlights };
  const first = highlights[0]?.[0] ?? 0;
  let from = Math.max(0, Math.min(first - Math.floor(maxChars / 4), snippet.length - maxChars));
  let to = Math.min(snippet.length, from + maxChars);
  // Never half of a surrogate pair.
  if (from > 0 && isLowSurrogate(snippet.charCodeAt(from))) from += 1;
  if (to < snippet.length && isLowSurrogate(snippet.charCodeAt(to))) to -= 1;
  const before = from > 0 ? ELLIPSIS : "";
  const after = to < snippet.length ? ELLIPSIS : "";
  const shift = before.length - from;
  const kept = highlights
    .filter(([start, end]) => end > from && start < to)
    .map(([start, end]): Highlight => [Math.max(start, from) + shift, Math.min(end, to) + shift]);
  return { snippet: before + snippet.slice(from, to) + after, highlights: kept };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export type Segment = { text: string; marked: boolean };

/**
 * `text` as consecutive pieces, the highlighted ones marked. Offsets out of order, overlapping or
 * outside the text are dropped or clipped (they come over the network), so the pieces always
 * join back to the text.
 */
export function highlightSegments(text: string, highlights: readonly (readonly [number, number])[]): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const [rawStart, rawEnd] of highlights) {
    if (!Number.isInteger(rawStart) || !Number.isInteger(rawEnd)) continue;
    const start = Math.max(at, rawStart);
    const end = Math.min(text.length, rawEnd);
    if (end <= start) continue;
    if (start > at) segments.push({ text: text.slice(at, start), marked: false });
    segments.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), marked: false });
  return segments;
}

export type ThreadHits = { threadId: string; threadTitle: string | null; hits: SearchHit[] };

/** Hits grouped by thread, threads in the order of their best hit, each thread's hits in the order given (best first). */
export function groupHitsByThread(hits: readonly SearchHit[]): ThreadHits[] {
  const groups = new Map<string, ThreadHits>();
  for (const hit of hits) {
    const group = groups.get(hit.threadId) ?? { threadId: hit.threadId, threadTitle: hit.threadTitle, hits: [] };
    if (group.hits.some((seen) => seen.turnId === hit.turnId)) continue;
    group.hits.push(hit);
    groups.set(hit.threadId, group);
  }
  return [...groups.values()];
}
