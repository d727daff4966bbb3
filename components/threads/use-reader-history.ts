"use client";

import { useCallback, useEffect, useRef } from "react";
import type { Turn } from "@/lib/domain/types";
import { fetchTurnIndex } from "@/lib/queries/threads";
import { parseTurnHash, turnHash, type TurnHash } from "./reader-nav";

/** Where a history entry of the thread page was: the 0-based index of the turn at the top of the screen. */
const STATE_KEY = "threadlineTurn";

type Options = {
  threadId: string;
  headIds: readonly string[];
  byIndex: ReadonlyMap<number, Turn>;
  /** False until React has hydrated: nothing moves before the list can. */
  enabled: boolean;
  currentIndex: () => number;
  scrollTo: (index: number) => void;
  /** Told the turn the page opened at (a deep link, a reload), once. */
  onArrive?: (index: number) => void;
};

/**
 * The thread page's history: a jump is a new entry (`#turn-N`) after the turn the reader was at
 * is recorded in the current one, so Back returns there; arriving at a deep link (`#turn-4000`,
 * or `#turn-<id>` as a turn's own anchor and the budget page write it), reloading, Back and
 * Forward all land on their entry's turn. In-page links to a turn jump the same way.
 */
export function useReaderHistory({ threadId, headIds, byIndex, enabled, currentIndex, scrollTo, onArrive }: Options) {
  const latest = useRef({ headIds, byIndex, currentIndex, scrollTo, onArrive });
  useEffect(() => {
    latest.current = { headIds, byIndex, currentIndex, scrollTo, onArrive };
  });

  const resolve = useCallback(
    async (hash: TurnHash): Promise<number | null> => {
      if ("index" in hash) return hash.index;
      const { headIds, byIndex } = latest.current;
      const inHead = headIds.indexOf(hash.turnId);
      if (inHead !== -1) return inHead;
      for (const turn of byIndex.values()) if (turn.id === hash.turnId) return turn.index;
      try {
        return await fetchTurnIndex(threadId, hash.turnId);
      } catch {
        return null; // not a turn of this thread: the page stays where it is
      }
    },
    [threadId],
  );

  /** Jumps as a new entry; its address is `#turn-N`, or the link's own (`#turn-<id>`) when one was followed. */
  const goTo = useCallback((index: number, hash = turnHash(index)) => {
    const here = latest.current.currentIndex();
    // The current entry keeps Next.js's own state (replaceState passes it through as it is).
    window.history.replaceState({ ...(window.history.state as object | null), [STATE_KEY]: here }, "");
    window.history.pushState({ [STATE_KEY]: index }, "", hash);
    latest.current.scrollTo(index);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const follow = async (state: unknown, arriving = false) => {
      const recorded = state && typeof state === "object" ? (state as Record<string, unknown>)[STATE_KEY] : undefined;
      const hash = typeof recorded === "number" ? null : parseTurnHash(window.location.hash);
      const index = typeof recorded === "number" ? recorded : hash ? await resolve(hash) : null;
      if (index === null || !live) return;
      latest.current.scrollTo(index);
      if (arriving) latest.current.onArrive?.(index);
    };
    void follow(window.history.state, true);
    const onPopState = (event: PopStateEvent) => void follow(event.state);
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href^='#turn-']") : null;
      const href = link?.getAttribute("href") ?? "";
      const hash = parseTurnHash(href);
      if (!hash) return;
      event.preventDefault();
      void resolve(hash).then((index) => {
        if (index !== null && live) goTo(index, href);
      });
    };
    window.addEventListener("popstate", onPopState);
    document.addEventListener("click", onClick);
    return () => {
      live = false;
      window.removeEventListener("popstate", onPopState);
      document.removeEventListener("click", onClick);
    };
  }, [enabled, resolve, goTo]);

  return { goTo };
}
