"use client";

import { defaultRangeExtractor, useWindowVirtualizer, type Range } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import type { ChildThreadLink } from "@/lib/domain/threads/links";
import type { DecodedOutline } from "@/lib/domain/threads/turn-outline";
import type { CompactionRunUsage, Turn } from "@/lib/domain/types";
import { formatInteger } from "@/lib/format";
import { useReadGrownThreadAgain, useTurnBlocks } from "@/lib/queries/hooks";
import { TURN_BLOCK } from "@/lib/queries/threads";
import { useHydrated } from "@/lib/queries/use-hydrated";
import { searchTerms } from "@/lib/domain/threads/search";
import { ReaderToolbar } from "./reader-toolbar";
import { jumpTarget, type Jump } from "./reader-nav";
import { buildToolIndex, type ToolIndex } from "./tool-index";
import { TOOL_OUTPUT_SELECTOR, toggleFolds, turnToggleStatus } from "./tool-outputs";
import { TurnView } from "./turn-view";
import { useReaderHistory } from "./use-reader-history";
import { useRevealFound, type Found } from "./use-reveal-found";

type Props = {
  threadId: string;
  turnCount: number;
  /** The first turns as the server rendered them (TurnView): the page reads before scripts run. */
  head: ReactNode[];
  /** Their ids, so a link to one of them (#turn-<id>) needs no request. */
  headIds: string[];
  /** The thread's children: a sub-agent is tied to its call in the turns rendered here too. */
  childLinks: ChildThreadLink[];
  /** The runs that wrote the thread's compaction summaries, by their marker's key (as the server attaches them to the first turns). */
  compactionRuns: Record<string, CompactionRunUsage>;
  /** Words from a search hit's link (`?q=`): find in thread starts with them, marked in the turn the link names. */
  initialQuery?: string;
};

/** A turn's height before it is measured: the running average of those measured, from this. */
const FIRST_ESTIMATE = 180;
/** Turns rendered beyond each edge of the screen. */
const OVERSCAN = 4;

/** How long a jump keeps its turn at the top while the turns around it load. */
const SETTLE_MS = 4_000;

const MemoTurnView = memo(TurnView);

/**
 * A thread's turns as a window (react-virtual over the whole document): the server-rendered first
 * turns always, then the turns around the screen, read by blocks from the paged turn API as the
 * reader scrolls or jumps. Rows sit in the normal flow (the list's padding stands for the turns
 * not rendered), so the server's HTML is the same list before scripts run. Jumps (toolbar, keys,
 * deep links, find) land on a turn index; each pushes a history entry.
 */
export function TurnReader({ threadId, turnCount, head, headIds, childLinks, compactionRuns, initialQuery }: Props) {
  const hydrated = useHydrated();
  const listRef = useRef<HTMLOListElement>(null);
  const scrollMargin = useScrollMargin(listRef);
  const [toolbarHeight, setToolbarHeight] = useState(0);
  const [target, setTarget] = useState<number | null>(null);
  const [found, setFound] = useState<Found | null>(null);
  const settlingRef = useSettling();
  const headCount = head.length;

  const { virtualizer, onMeasured } = useTurnWindow({ turnCount, headCount, scrollMargin, toolbarHeight, settlingRef });

  const items = hydrated ? virtualizer.getVirtualItems() : null;
  const rendered = items ? items.map((item) => item.index) : [...Array(headCount).keys()];

  const { byIndex, tools, error } = useLoadedTurns({ threadId, turnCount, headCount, rendered, childLinks, compactionRuns });

  // A longer thread (a reply was stored): its last blocks, outline and finds are read again.
  useReadGrownThreadAgain(threadId, turnCount);

  // The words a find landed on: opened, marked once their turn is rendered (again when it is rendered anew), brought into view.
  useRevealFound({
    found,
    listRef,
    toolbarHeight,
    jumped: () => settlingRef.current !== null,
    stopSettling: () => {
      settlingRef.current = null;
    },
  });

  const currentIndex = useCallback(() => {
    const item = virtualizer.getVirtualItemForOffset(window.scrollY + toolbarHeight + 9);
    return Math.min(item?.index ?? 0, Math.max(0, turnCount - 1));
  }, [virtualizer, toolbarHeight, turnCount]);

  const scrollTo = useCallback(
    (index: number) => {
      setTarget(index);
      settlingRef.current = { index, until: performance.now() + SETTLE_MS };
      virtualizer.scrollToIndex(index, { align: "start" });
    },
    [virtualizer, settlingRef],
  );
  // A search hit's link (`?q=...#turn-N`) lands with its words found in the turn it opens at.
  const onArrive = useCallback(
    (index: number) => {
      const terms = initialQuery ? searchTerms(initialQuery) : [];
      if (terms.length > 0) setFound({ index, terms });
    },
    [initialQuery],
  );
  const { goTo } = useReaderHistory({
    threadId,
    headIds,
    byIndex,
    enabled: hydrated && toolbarHeight > 0,
    currentIndex,
    scrollTo,
    onArrive,
  });

  const jump = useCallback(
    (to: Jump, outline?: DecodedOutline | null) => {
      const index = jumpTarget(to, { current: currentIndex(), turnCount, outline });
      if (index !== null) goTo(index);
      return index;
    },
    [currentIndex, goTo, turnCount],
  );

  const outputs = useOutputsToggle(listRef, currentIndex);

  const rows = items ?? rendered.map((index) => ({ index, start: 0, end: 0, key: index }));
  const first = items?.[0];
  const last = items?.at(-1);
  const paddingTop = first ? Math.max(0, first.start - scrollMargin) : 0;
  const paddingBottom = last
    ? Math.max(0, virtualizer.getTotalSize() - (last.end - scrollMargin))
    : Math.max(0, turnCount - headCount) * FIRST_ESTIMATE;

  return (
    <section aria-label="Conversation">
      <ReaderToolbar
        threadId={threadId}
        turnCount={turnCount}
        ready={hydrated}
        current={hydrated ? currentIndex() : 0}
        jump={jump}
        onHeight={setToolbarHeight}
        onFound={setFound}
        initialQuery={initialQuery}
        landedAt={found?.index ?? null}
        onToggleOutputs={outputs.toggle}
        allOutputsOpen={outputs.allOpen}
      />
      <ol ref={listRef} aria-label="Turns" className="[overflow-anchor:none]" style={{ paddingTop, paddingBottom }}>
        <TurnRows
          rows={rows}
          measured={items !== null}
          head={head}
          byIndex={byIndex}
          tools={tools}
          target={target}
          error={error}
          onMeasured={onMeasured}
        />
      </ol>
    </section>
  );
}

type Row = { index: number; start: number; end: number; key: number | string | bigint };

/** The rows in the window: a server-rendered turn, a loaded one, or its placeholder; the gaps react-virtual left kept as margins. */
function TurnRows({
  rows,
  measured,
  head,
  byIndex,
  tools,
  target,
  error,
  onMeasured,
}: {
  rows: Row[];
  /** Whether the rows are react-virtual's (positions known), not the server's first turns. */
  measured: boolean;
  head: ReactNode[];
  byIndex: Map<number, Turn>;
  tools: ToolIndex;
  target: number | null;
  error: string | null;
  onMeasured: (node: HTMLLIElement | null) => void;
}) {
  const headCount = head.length;
  return rows.map((item, i) => {
    const previous = i > 0 ? rows[i - 1] : undefined;
    const gap = measured && previous ? item.start - previous.end : 0;
    const turn = item.index < headCount ? null : byIndex.get(item.index);
    const loaded = item.index < headCount || turn !== undefined;
    return (
      <li
        key={item.key}
        data-index={item.index}
        data-loaded={loaded ? "true" : "false"}
        ref={onMeasured}
        className={`pb-3 ${target === item.index ? "[&>article]:ring-2 [&>article]:ring-indigo-300" : ""}`}
        style={gap > 0 ? { marginTop: gap } : undefined}
      >
        {item.index < headCount ? (
          head[item.index]
        ) : turn ? (
          <MemoTurnView turn={turn} number={item.index + 1} tools={tools} menu />
        ) : (
          <TurnPlaceholder number={item.index + 1} error={error} />
        )}
      </li>
    );
  });
}

/**
 * The window over the turns (react-virtual over the whole document), and the ref each row
 * reports its height by: a row not yet measured is estimated at the average of those measured.
 */
function useTurnWindow({
  turnCount,
  headCount,
  scrollMargin,
  toolbarHeight,
  settlingRef,
}: {
  turnCount: number;
  headCount: number;
  scrollMargin: number;
  toolbarHeight: number;
  settlingRef: RefObject<{ index: number; until: number } | null>;
}) {
  const estimate = useRef({ total: 0, count: 0 });
  // The server-rendered turns stay mounted: they came with the page, and what a reader opened in
  // them (a long output, a tool card) stays open.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const visible = defaultRangeExtractor(range).filter((index) => index >= headCount);
      return [...Array(Math.min(headCount, range.count)).keys(), ...visible];
    },
    [headCount],
  );
  const virtualizer = useWindowVirtualizer({
    count: turnCount,
    estimateSize: () => (estimate.current.count > 0 ? estimate.current.total / estimate.current.count : FIRST_ESTIMATE),
    overscan: OVERSCAN,
    scrollMargin,
    scrollPaddingStart: toolbarHeight + 8,
    rangeExtractor,
    // Unrounded (react-virtual rounds): rows sit in the flow, where 0.4 px a row adds up.
    measureElement: (element, entry) => entry?.borderBoxSize?.[0]?.blockSize ?? element.getBoundingClientRect().height,
    onChange: (instance) => {
      const jump = settlingRef.current;
      if (!jump) return;
      if (performance.now() > jump.until) {
        settlingRef.current = null;
        return;
      }
      const [offset] = instance.getOffsetForIndex(jump.index, "start") ?? [];
      if (offset !== undefined && Math.abs(offset - (instance.scrollOffset ?? 0)) > 1)
        instance.scrollToIndex(jump.index, { align: "start" });
    },
  });

  const onMeasured = useCallback(
    (node: HTMLLIElement | null) => {
      virtualizer.measureElement(node);
      if (node?.dataset.loaded === "true" && !node.dataset.counted) {
        node.dataset.counted = "true";
        estimate.current.total += node.getBoundingClientRect().height;
        estimate.current.count += 1;
      }
    },
    [virtualizer],
  );
  return { virtualizer, onMeasured };
}

/**
 * A jump's turn is kept at the top while the turns around it load and take their real heights
 * (react-virtual only corrects for rows wholly above the screen), until the reader scrolls.
 */
function useSettling() {
  const settlingRef = useRef<{ index: number; until: number } | null>(null);
  useEffect(() => {
    const stop = () => {
      settlingRef.current = null;
    };
    const options = { capture: true, passive: true };
    for (const type of ["wheel", "touchstart", "mousedown", "keydown"]) window.addEventListener(type, stop, options);
    return () => {
      for (const type of ["wheel", "touchstart", "mousedown", "keydown"]) window.removeEventListener(type, stop, options);
    };
  }, []);
  return settlingRef;
}

/** Where the list starts in the document, as the page changes. */
function useScrollMargin(listRef: RefObject<HTMLOListElement | null>): number {
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const list = listRef.current;
      if (!list) return;
      const top = list.getBoundingClientRect().top + window.scrollY;
      setScrollMargin((before) => (Math.abs(before - top) > 0.5 ? top : before));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [listRef]);
  return scrollMargin;
}

/**
 * Shift+O (or the toolbar's button) opens or closes every tool output, those rendered later as
 * they appear too (a generation each fold is stamped with); o, those of the turn at the top.
 * `toggle` answers the sentence announced.
 */
function useOutputsToggle(listRef: RefObject<HTMLOListElement | null>, currentIndex: () => number) {
  const [allOutputs, setAllOutputs] = useState<{ open: boolean; generation: number } | null>(null);
  useEffect(() => {
    if (!allOutputs) return;
    const stamp = String(allOutputs.generation);
    for (const fold of listRef.current?.querySelectorAll<HTMLDetailsElement>(TOOL_OUTPUT_SELECTOR) ?? []) {
      if (fold.dataset.allOutputs === stamp) continue;
      fold.dataset.allOutputs = stamp;
      fold.open = allOutputs.open;
    }
  });
  const toggle = (scope: "turn" | "all"): string => {
    if (scope === "all") {
      const open = !(allOutputs?.open ?? false);
      setAllOutputs({ open, generation: (allOutputs?.generation ?? 0) + 1 });
      return open ? "Opened every tool output." : "Closed every tool output.";
    }
    const index = currentIndex();
    const folds = [
      ...(listRef.current?.querySelectorAll<HTMLDetailsElement>(`li[data-index="${index}"] :is(${TOOL_OUTPUT_SELECTOR})`) ?? []),
    ];
    return turnToggleStatus(index + 1, toggleFolds(folds), folds.length);
  };
  return { allOpen: allOutputs?.open ?? false, toggle };
}

/**
 * The turns past the server's first ones that the window shows, read by blocks: those of the turns
 * on screen and their neighbours (a call's result is often in the next turn), by index, and the
 * tool index over all read so far.
 */
function useLoadedTurns({
  threadId,
  turnCount,
  headCount,
  rendered,
  childLinks,
  compactionRuns,
}: Pick<Props, "threadId" | "turnCount" | "childLinks" | "compactionRuns"> & { headCount: number; rendered: number[] }) {
  const wanted = [
    ...new Set(rendered.filter((index) => index >= headCount).flatMap((index) => neighbours(Math.floor(index / TURN_BLOCK), turnCount))),
  ].sort((a, b) => a - b);
  const blocks = useTurnBlocks(threadId, wanted);
  const byIndex = useMemo(() => {
    const map = new Map<number, Turn>();
    for (const turns of blocks.turns) for (const turn of turns ?? []) map.set(turn.index, withCompactionRun(turn, compactionRuns));
    return map;
  }, [blocks.turns, compactionRuns]);
  const tools = useMemo(() => {
    const turns = [...byIndex.values()].sort((a, b) => a.index - b.index);
    return buildToolIndex(
      turns.map((turn) => ({ turn, number: turn.index + 1 })),
      childLinks,
      { partial: turns.length < turnCount },
    );
  }, [byIndex, childLinks, turnCount]);
  return { byIndex, tools, error: blocks.error };
}

/** A compaction marker with the run that wrote its summary, when the source kept it (as withSessionUsage does on the server). */
function withCompactionRun(turn: Turn, runs: Record<string, CompactionRunUsage>): Turn {
  const key = turn.parts?.some((p) => p.type === "compaction") ? turn.modelMetadata?.logicalParentUuid : undefined;
  const run = typeof key === "string" ? runs[key] : undefined;
  return run ? { ...turn, compactionRun: run } : turn;
}

/** A block and the blocks either side of it that exist. */
function neighbours(block: number, turnCount: number): number[] {
  const lastBlock = Math.max(0, Math.ceil(turnCount / TURN_BLOCK) - 1);
  return [block - 1, block, block + 1].filter((b) => b >= 0 && b <= lastBlock);
}

/** A turn whose block is being read (or failed to be). */
function TurnPlaceholder({ number, error }: { number: number; error: string | null }) {
  return (
    <div
      aria-busy={error === null}
      className="flex h-28 items-start rounded-lg border border-zinc-200 bg-white px-4 py-2 text-xs text-zinc-500"
      data-testid="turn-placeholder"
    >
      <span className="font-mono">#{formatInteger(number)}</span>
      <span className="ml-3">{error ?? "Loading…"}</span>
    </div>
  );
}
