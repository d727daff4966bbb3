"use client";

import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from "react";
import { ShortcutsDialog } from "@/components/ui/shortcuts-dialog";
import { usePageKeys } from "@/components/ui/use-page-keys";
import type { DecodedOutline } from "@/lib/domain/threads/turn-outline";
import { formatInteger } from "@/lib/format";
import { useFindInThread, useThreadOutline } from "@/lib/queries/hooks";
import { findStep, JUMP_KINDS, shownMatch, READER_KEYS, type Jump, type JumpKind, type ReaderAction } from "./reader-nav";

type Props = {
  threadId: string;
  turnCount: number;
  /** False until React has hydrated: the controls wait for the list. */
  ready: boolean;
  /** The 0-based index of the turn at the top of the screen. */
  current: number;
  /** Jumps (a new history entry); answers the turn landed on, or null when there is none that way. */
  jump: (to: Jump, outline?: DecodedOutline | null) => number | null;
  onHeight: (height: number) => void;
  /** The turn a find landed on and the words it found there (null: none), to mark them. */
  onFound: (found: { index: number; terms: string[] } | null) => void;
  /** Words the page was opened with (a search hit's link): the find box starts with them, already sent. */
  initialQuery?: string;
  /** The turn the words were found in when the page opened (0-based), to count from. */
  landedAt?: number | null;
  /** Opens or closes the tool outputs of the turn at the top, or of every turn; answers what it did, for the status line. */
  onToggleOutputs: (scope: "turn" | "all") => string;
  /** Whether "all" last opened the tool outputs (the button then offers to close them). */
  allOutputsOpen: boolean;
};

const BUTTON = "rounded border border-zinc-300 bg-white px-2 py-0.5 text-zinc-700 hover:bg-zinc-50 disabled:opacity-50";
const FIELD = "rounded border border-zinc-300 bg-white px-2 py-0.5 focus:border-sky-500";

/**
 * The bar above a thread's turns, kept in view: go to a turn by number, the first or the last,
 * the next or previous turn of a kind (tool call, error, compaction, sub-agent, user message: from
 * the thread's outline, read when first asked), find words in every turn (server-side: the
 * browser's own find sees only the turns rendered), and the keyboard shortcuts (j/k, g/G, /, ?).
 */
export function ReaderToolbar({
  threadId,
  turnCount,
  ready,
  current,
  jump,
  onHeight,
  onFound,
  initialQuery,
  landedAt,
  onToggleOutputs,
  allOutputsOpen,
}: Props) {
  const keysId = useId();
  const root = useRef<HTMLDivElement>(null);
  const findInput = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const [status, setStatus] = useState("");
  useHeightReport(root, onHeight);

  const land = (to: Jump, data?: DecodedOutline | null, none = "") => {
    const index = jump(to, data);
    setStatus(index === null ? none : `Turn ${formatInteger(index + 1)} of ${formatInteger(turnCount)}`);
  };
  const finder = useFinder({ threadId, current, onFound, initialQuery, landedAt, land });

  // The page's keys, anywhere but in a field (the composer takes its own) or while the list of keys is open.
  const onKey = (action: ReaderAction) => {
    if (action === "next-turn") land({ to: "step", direction: 1 });
    else if (action === "previous-turn") land({ to: "step", direction: -1 });
    else if (action === "first-turn") land({ to: "first" });
    else if (action === "last-turn") land({ to: "last" });
    else if (action === "find") findInput.current?.focus();
    else if (action === "toggle-outputs") setStatus(onToggleOutputs("turn"));
    else if (action === "toggle-all-outputs") setStatus(onToggleOutputs("all"));
    else dialog.current?.showModal();
  };
  usePageKeys(READER_KEYS, onKey, ready);

  return (
    <div
      ref={root}
      role="group"
      aria-label="Move through the conversation"
      className="sticky top-0 z-20 -mx-4 mb-3 border-b border-zinc-200 bg-zinc-50/95 px-4 py-2 text-sm backdrop-blur"
      data-testid="reader-toolbar"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <TurnNumberForm turnCount={turnCount} current={current} ready={ready} land={land} onInvalid={setStatus} />
        <span className="flex items-center gap-1">
          <button type="button" disabled={!ready} onClick={() => land({ to: "first" })} className={BUTTON}>
            First
          </button>
          <button type="button" disabled={!ready} onClick={() => land({ to: "last" })} className={BUTTON}>
            Last
          </button>
        </span>
        <KindJump threadId={threadId} ready={ready} land={land} onStatus={setStatus} />
        <FindBox finder={finder} ready={ready} inputRef={findInput} />
        <button
          type="button"
          disabled={!ready}
          onClick={() => setStatus(onToggleOutputs("all"))}
          title="Shift+O"
          className={`${BUTTON} ml-auto`}
          data-testid="toggle-all-outputs"
        >
          {allOutputsOpen ? "Close all tool outputs" : "Open all tool outputs"}
        </button>
        <button
          type="button"
          onClick={() => dialog.current?.showModal()}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          className={BUTTON}
        >
          ?
        </button>
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>
      <ShortcutsDialog
        ref={dialog}
        titleId={keysId}
        bindings={READER_KEYS}
        more={FIND_KEYS}
        note="Not while typing in a field, such as the message box."
      />
    </div>
  );
}

/** Lands on a turn (a new history entry) and says where, or `none` when there is no turn that way. */
type Land = (to: Jump, data?: DecodedOutline | null, none?: string) => void;

/** Tells the page the toolbar's height as it changes (the list scrolls turns to just below it). */
function useHeightReport(root: RefObject<HTMLDivElement | null>, onHeight: (height: number) => void) {
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const observer = new ResizeObserver(() => onHeight(element.getBoundingClientRect().height));
    observer.observe(element);
    return () => observer.disconnect();
  }, [root, onHeight]);
}

/** Go to a turn by its number. */
function TurnNumberForm({
  turnCount,
  current,
  ready,
  land,
  onInvalid,
}: {
  turnCount: number;
  current: number;
  ready: boolean;
  land: Land;
  onInvalid: (status: string) => void;
}) {
  const id = useId();
  const [turnText, setTurnText] = useState("");
  const goToTurn = (event: FormEvent) => {
    event.preventDefault();
    const number = Number(turnText);
    if (!Number.isInteger(number) || number < 1) return onInvalid(`Turn numbers go from 1 to ${formatInteger(turnCount)}.`);
    land({ to: "turn", index: number - 1 });
  };
  return (
    <form onSubmit={goToTurn} className="flex items-center gap-1">
      <label htmlFor={id} className="text-zinc-600">
        Turn
      </label>
      <input
        id={id}
        inputMode="numeric"
        value={turnText}
        onChange={(event) => setTurnText(event.target.value.replace(/\D/g, ""))}
        placeholder={formatInteger(current + 1)}
        aria-describedby={`${id}-of`}
        className={`${FIELD} w-20`}
      />
      <span id={`${id}-of`} className="text-zinc-500">
        of {formatInteger(turnCount)}
      </span>
      <button type="submit" disabled={!ready} className={BUTTON}>
        Go
      </button>
    </form>
  );
}

/** The next or previous turn of a kind, from the thread's outline: read the first time a jump needs it, the jump then happens. */
function KindJump({
  threadId,
  ready,
  land,
  onStatus,
}: {
  threadId: string;
  ready: boolean;
  land: Land;
  onStatus: (status: string) => void;
}) {
  const id = useId();
  const [kind, setKind] = useState<JumpKind>("toolCall");
  const [wantOutline, setWantOutline] = useState(false);
  const outline = useThreadOutline(threadId, wantOutline);
  const pendingKindJump = useRef<((outline: DecodedOutline) => void) | null>(null);
  useEffect(() => {
    const run = pendingKindJump.current;
    if (outline.data && run) {
      pendingKindJump.current = null;
      run(outline.data);
    }
  }, [outline.data]);

  const label = JUMP_KINDS.find((k) => k.kind === kind)!;
  const byKind = (direction: 1 | -1) => {
    const go = (data: DecodedOutline) =>
      land({ to: "kind", kind, direction }, data, `No ${direction === 1 ? "later" : "earlier"} ${label.label.toLowerCase()}.`);
    if (outline.data) return go(outline.data);
    pendingKindJump.current = go;
    setWantOutline(true);
    onStatus("Reading the thread's outline…");
  };
  return (
    <span className="flex items-center gap-1">
      <button
        type="button"
        disabled={!ready}
        onClick={() => byKind(-1)}
        aria-label={`Previous ${label.label.toLowerCase()}`}
        title={`Previous ${label.label.toLowerCase()}`}
        className={BUTTON}
      >
        ‹
      </button>
      <label htmlFor={id} className="sr-only">
        Jump to the next or previous
      </label>
      <select id={id} value={kind} onChange={(event) => setKind(event.target.value as JumpKind)} className={FIELD}>
        {JUMP_KINDS.map((k) => (
          <option key={k.kind} value={k.kind}>
            {k.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={!ready}
        onClick={() => byKind(1)}
        aria-label={`Next ${label.label.toLowerCase()}`}
        title={`Next ${label.label.toLowerCase()}`}
        className={BUTTON}
      >
        ›
      </button>
    </span>
  );
}

/**
 * Find in thread: a new query is sent on Enter; Enter again steps to the next match, Shift+Enter
 * back. Opened from a search hit, the count starts at the turn the page landed on ("3 of 17").
 */
function useFinder({
  threadId,
  current,
  onFound,
  initialQuery,
  landedAt,
  land,
}: Pick<Props, "threadId" | "current" | "onFound" | "initialQuery" | "landedAt"> & { land: Land }) {
  const [findText, setFindText] = useState(initialQuery ?? "");
  const [query, setQuery] = useState<string | null>(initialQuery || null);
  const [matchAt, setMatchAt] = useState<number | null>(null);
  const found = useFindInThread(threadId, query);
  const pendingFind = useRef<1 | -1 | null>(null);

  const stepMatch = ({ indexes, terms }: { indexes: readonly number[]; terms: string[] }, from: number | null, direction: 1 | -1) => {
    const at = findStep(indexes, from, direction, current);
    if (at === null) return;
    setMatchAt(at);
    onFound({ index: indexes[at]!, terms });
    land({ to: "turn", index: indexes[at]! });
  };
  // Opened from a search hit, the count starts at the turn it landed on, until a step.
  const shownAt = shownMatch({
    matches: found.data?.indexes,
    steppedTo: matchAt,
    fromSearchHit: query !== null && query === initialQuery,
    landedAt: landedAt ?? null,
  });
  useEffect(() => {
    const direction = pendingFind.current;
    if (found.data && direction !== null) {
      pendingFind.current = null;
      stepMatch(found.data, null, direction);
    }
    // Only an answer arriving steps; `current` is read then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [found.data]);
  const find = (direction: 1 | -1) => {
    const q = findText.trim();
    if (!q) return;
    if (q !== query) {
      pendingFind.current = direction;
      setQuery(q);
      setMatchAt(null);
      onFound(null);
    } else if (found.data) stepMatch(found.data, shownAt, direction);
  };
  const changeText = (text: string) => {
    setFindText(text);
    // Emptied (the clear button, or Escape in a search box): the last find's count and marks go too.
    if (!text.trim()) {
      setQuery(null);
      setMatchAt(null);
      onFound(null);
    }
  };

  const matches = found.data?.indexes ?? [];
  const more = found.data?.capped ? "+" : "";
  const status = found.isFetching
    ? "Finding…"
    : found.error
      ? found.error.message
      : !found.data
        ? ""
        : matches.length === 0
          ? "No matches"
          : shownAt === null
            ? `${formatInteger(matches.length)}${more} matches`
            : `${formatInteger(shownAt + 1)} of ${formatInteger(matches.length)}${more}`;
  return { text: findText, changeText, find, status };
}

/** The find box, its previous and next buttons, and the count. */
function FindBox({
  finder,
  ready,
  inputRef,
}: {
  finder: ReturnType<typeof useFinder>;
  ready: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const id = useId();
  const onFindKey = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      finder.find(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      event.currentTarget.blur();
    }
  };
  return (
    <span role="search" className="flex min-w-0 items-center gap-1">
      <label htmlFor={id} className="sr-only">
        Find in thread
      </label>
      <input
        id={id}
        ref={inputRef}
        type="search"
        value={finder.text}
        onChange={(event) => finder.changeText(event.target.value)}
        onKeyDown={onFindKey}
        placeholder="Find in thread"
        data-search-box
        title="Enter: next match, Shift+Enter: previous"
        className={`${FIELD} w-44 min-w-0`}
      />
      <button
        type="button"
        disabled={!ready || !finder.text.trim()}
        onClick={() => finder.find(-1)}
        aria-label="Previous match"
        className={BUTTON}
      >
        ↑
      </button>
      <button
        type="button"
        disabled={!ready || !finder.text.trim()}
        onClick={() => finder.find(1)}
        aria-label="Next match"
        className={BUTTON}
      >
        ↓
      </button>
      <span className="text-xs whitespace-nowrap text-zinc-600" data-testid="find-status" aria-live="polite">
        {finder.status}
      </span>
    </span>
  );
}

/** Keys of the find box, shown with the page's. */
const FIND_KEYS = [{ keys: ["Enter"], label: "In the find box: next match (Shift+Enter: previous)" }];
