"use client";

import { useEffect, useRef, type RefObject } from "react";
import { firstMatch, highlightTerms, revealMatch, turnShowingResult, type Reveal } from "./find-highlight";

export type Found = { index: number; terms: string[] };

/** How often, and how many times, the reveal looks again while a turn or its full text loads. */
const RETRY_MS = 150;
const MAX_TRIES = 40;

/** The turn a find landed on, or the turn showing its tool result when that is where the words are. */
function rootOf(list: HTMLElement | null, found: Found): Element | null {
  const row = list?.querySelector(`li[data-index="${found.index}"][data-loaded="true"]`) ?? null;
  if (!row || firstMatch(row, found.terms)) return row;
  return turnShowingResult(row) ?? row;
}

/**
 * Where a find (or a search hit's link, `?q=...#turn-N`) landed: opens what hides the words in that
 * turn (a closed tool card, a collapsed long output, a preview that stops short of them), marks
 * them, and brings the first into view when the turn's top is not where they are. A tool result
 * shown inside its call's card, in an earlier turn, is revealed there.
 */
export function useRevealFound({
  found,
  listRef,
  toolbarHeight,
  jumped,
  stopSettling,
}: {
  found: Found | null;
  listRef: RefObject<HTMLElement | null>;
  toolbarHeight: number;
  jumped: () => boolean;
  stopSettling: () => void;
}) {
  const highlighted = useRef<Element | null>(null);
  const latest = useRef({ toolbarHeight, jumped, stopSettling });
  useEffect(() => {
    latest.current = { toolbarHeight, jumped, stopSettling };
  });

  // Marked again whenever the turn is rendered anew (scrolled away and back).
  useEffect(() => {
    const root = found ? rootOf(listRef.current, found) : null;
    if (root === highlighted.current) return;
    highlighted.current = root;
    highlightTerms(root, found?.terms ?? []);
  });

  useEffect(() => {
    if (!found) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    let settled = false;
    const attempt = () => {
      tries += 1;
      const row = listRef.current?.querySelector(`li[data-index="${found.index}"][data-loaded="true"]`) ?? null;
      let root: Element | null = row;
      let result: Reveal = row ? revealMatch(row, found.terms) : "loading";
      if (row && result === null) {
        const shown = turnShowingResult(row);
        if (shown) [root, result] = [shown, revealMatch(shown, found.terms)];
      }
      highlighted.current = root;
      highlightTerms(root, found.terms);
      const done = result !== null && result !== "loading" && !result.opened ? result.found : null;
      // Brought into view once the jump to the turn has happened (or never will).
      if (done && (latest.current.jumped() || tries > 10)) {
        settled = true;
        const rect = done.getBoundingClientRect();
        const top = latest.current.toolbarHeight + 8;
        if (rect.height > 0 && (rect.top < top || rect.bottom > window.innerHeight)) {
          latest.current.stopSettling();
          window.scrollBy({ top: rect.top - Math.max(top, window.innerHeight / 3) });
        }
      }
      if (!settled && result !== null && tries < MAX_TRIES) timer = setTimeout(attempt, RETRY_MS);
    };
    attempt();
    return () => clearTimeout(timer);
  }, [found, listRef]);
}
