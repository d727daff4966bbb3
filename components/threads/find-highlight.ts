/**
 * Marks the words a find matched in the turn it landed on, with the CSS Custom Highlight API (no
 * change to the turn's markup, so nothing re-renders and nothing is injected into its text).
 */
import { matchesAsPrefix } from "@/lib/domain/threads/search";

const HIGHLIGHT = "threadline-find";

/**
 * The [start, end) of each word in `text` that a term begins (as the full-text search matches: a
 * word prefix, or the whole word for a short term), case and accents aside.
 * @internal exported for its tests
 */
export function termRanges(text: string, terms: readonly string[]): [number, number][] {
  if (terms.length === 0) return [];
  const folded = (value: string) => value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const wanted = terms.map(folded);
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)) {
    const word = folded(match[0]);
    const hit = wanted.some((term) => (matchesAsPrefix(term) ? word.startsWith(term) : word === term));
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

/** The first text node in `root` holding a word the terms match, and where; null when none. */
export function firstMatch(root: Element, terms: readonly string[]): { node: Text; start: number; end: number } | null {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const [range] = termRanges(node.textContent ?? "", terms);
    if (range) return { node: node as Text, start: range[0], end: range[1] };
  }
  return null;
}

/** What revealMatch did: found the match (and opened what hid it), asked for more text to load, or found nothing. */
export type Reveal = { found: Range; opened: boolean } | "loading" | null;

/**
 * Opens what hides the first match of `terms` in `root`: the closed <details> around it (a tool
 * card, thinking, a result) and a collapsed long turn (its "Show all" button). When no text shown
 * holds a match but a preview stops short ("Show all" of a long output or argument), asks each to
 * load the rest ("loading": look again once they have). The page's own buttons are clicked, so the
 * components stay in charge of their state.
 */
export function revealMatch(root: Element, terms: readonly string[]): Reveal {
  const match = firstMatch(root, terms);
  if (match) {
    let opened = false;
    for (let at: Element | null = match.node.parentElement; at && at !== root.parentElement; at = at.parentElement) {
      if (at instanceof HTMLDetailsElement && !at.open) {
        at.open = true;
        opened = true;
      }
      if (at.id && at.hasAttribute("inert")) {
        const toggle = root.querySelector<HTMLButtonElement>(`button[aria-expanded="false"][aria-controls="${CSS.escape(at.id)}"]`);
        if (toggle) {
          toggle.click();
          opened = true;
        }
      }
    }
    const range = new Range();
    range.setStart(match.node, match.start);
    range.setEnd(match.node, match.end);
    return { found: range, opened };
  }
  const previews = [...root.querySelectorAll<HTMLButtonElement>('button[aria-expanded="false"][aria-controls]')].filter(
    (button) => /^Show all/.test(button.textContent ?? "") && !button.dataset.revealed,
  );
  for (const button of previews) {
    button.dataset.revealed = "true";
    button.click();
  }
  if (previews.length > 0 || root.querySelector('button[aria-busy="true"]')) return "loading";
  return null;
}

/**
 * The turn that shows a tool result's text when the result's own turn only points at it (the
 * result is shown inside its call's card, in the turn `#turn-<id>` its card links to).
 */
export function turnShowingResult(row: Element): Element | null {
  const link = row.querySelector<HTMLAnchorElement>('[data-testid="tool-result-ref"] a[href^="#turn-"]');
  const target = link ? document.getElementById(link.getAttribute("href")!.slice(1)) : null;
  return target?.closest("li[data-index]") ?? null;
}
