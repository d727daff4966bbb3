"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { formatInteger } from "@/lib/format";
import { useThreadGrowth } from "@/lib/queries/hooks";

/** How close to the end of the page counts as reading the end: new turns then scroll into view. */
const AT_END_PX = 120;

const atEnd = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - AT_END_PX;

/**
 * Keeps an open thread page up to date while an agent (or an import following its files) writes
 * to the thread: when the thread holds more turns than the page shows, the page is rendered again
 * on the server (router.refresh keeps what the reader opened and where they are). A reader at the
 * end of the thread is taken to the new end; anyone else stays where they are, told how many
 * turns arrived. Where the reader is comes from their last scroll, not from the page's height
 * when turns arrive: a block read again below them must not turn a reader at the end into one
 * further up. It is read when the turns are shown, not when they were asked for: refreshes follow
 * one another while an agent writes fast, and the reader may move in between.
 */
export function LiveThread({ threadId, turnCount, lastUpdatedAt }: { threadId: string; turnCount: number; lastUpdatedAt: string }) {
  const router = useRouter();
  const grew = useThreadGrowth(threadId, turnCount, lastUpdatedAt);
  const [, startTransition] = useTransition();
  const refreshedAt = useRef<number | null>(null);
  const readingEnd = useRef(true);
  const shown = useRef(turnCount);
  const [arrived, setArrived] = useState(0);

  useEffect(() => {
    if (!grew || refreshedAt.current === turnCount) return;
    refreshedAt.current = turnCount;
    startTransition(() => router.refresh());
  }, [grew, router, turnCount]);

  useEffect(() => {
    const added = turnCount - shown.current;
    shown.current = turnCount;
    if (added <= 0) return;
    if (readingEnd.current) {
      window.scrollTo({ top: document.documentElement.scrollHeight });
      setArrived(0);
    } else {
      setArrived((before) => before + added);
    }
  }, [turnCount]);

  useEffect(() => {
    const onScroll = () => {
      readingEnd.current = atEnd();
      if (readingEnd.current) setArrived(0);
    };
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-20 flex justify-center">
      {arrived > 0 && (
        <button
          type="button"
          onClick={() => {
            window.scrollTo({ top: document.documentElement.scrollHeight });
            setArrived(0);
          }}
          className="pointer-events-auto rounded-full bg-indigo-700 px-4 py-1.5 text-sm font-medium text-white shadow-lg hover:bg-indigo-800 focus-visible:ring-2 focus-visible:ring-indigo-300"
          data-testid="new-turns"
        >
          {arrived === 1 ? "1 new turn" : `${formatInteger(arrived)} new turns`} below
        </button>
      )}
    </div>
  );
}
