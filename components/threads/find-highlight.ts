/**
 * Marks the words a find matched in the turn it landed on, with the CSS Custom Highlight API (no
 * change to the turn's markup, so nothing re-renders and nothing is injected into its text).
 */
import { MIN_PREFIX_LENGTH } from "@/lib/domain/search";

const HIGHLIGHT = "threadline-find";

/**
 * The [start, end) of each word in `text` that a term begins (as the full-text search matches: a
 * word prefix, or the whole word for a short term), case and accents aside.
 */
export function termRanges(text: string, terms: readonly string[]): [number, number][] {
  if (terms.length === 0) return [];
  const folded = (value: string) => value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const wanted = terms.map(folded);
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)) {
    const word = folded(match[0]);
    const hit = wanted.some((term) => (Array.from(term).length >= MIN_PREFIX_LENGTH ? word.startsWith(term) : word === term));
    if (hit) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** Highlights the terms' words inside `root` (or clears the highlight with null); false where the browser has no highlight API. */
export function highlightTerms(root: Element | null, terms: readonly string[]): boolean {
  if (typeof CSS === "undefined" || !("highlights" in CSS) || typeof Highlight === "undefined") return false;
  if (!root || terms.length === 0) {
    CSS.highlights.delete(HIGHLIGHT);
    return true;
  }
  const highlight = new Highlight();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const [start, end] of termRanges(node.textContent ?? "", terms)) {
      const range = new Range();
      range.setStart(node, start);
      range.setEnd(node, end);
      highlight.add(range);
    }
  }
  CSS.highlights.set(HIGHLIGHT, highlight);
  return true;
}
