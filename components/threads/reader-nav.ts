/**
 * The thread page's navigation, as pure functions: which turn a deep link names, which key does
 * what, and where a jump lands. The page shows a window of a long thread, so every jump is an
 * index computed here and scrolled to by the windowed list (turn-reader.tsx).
 */
import { nextIndex, previousIndex, type DecodedOutline, type OutlineKind } from "@/lib/domain/threads/turn-outline";
import type { KeyBinding } from "@/lib/domain/display/keys";
import type { Turn } from "@/lib/domain/types";

/** What `#turn-…` names: a turn number as the page shows it (#1 is index 0), or a turn id (the anchors TurnView writes). */
export type TurnHash = { index: number } | { turnId: string };

/** `#turn-1234` is turn 1,234 (index 1,233); `#turn-<uuid>` a turn by id; anything else is no turn. */
export function parseTurnHash(hash: string): TurnHash | null {
  const match = /^#?turn-(.+)$/.exec(hash);
  if (!match) return null;
  const name = decodeURIComponent(match[1]!);
  if (/^\d{1,9}$/.test(name)) {
    const number = Number(name);
    return number >= 1 ? { index: number - 1 } : null;
  }
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name) ? { turnId: name.toLowerCase() } : null;
}

/** The deep link to a turn by its 0-based index: `#turn-<number>`. */
export function turnHash(index: number): string {
  return `#turn-${index + 1}`;
}

/** The kinds of turn one can jump between, in the order the page offers them. */
export const JUMP_KINDS = [
  { kind: "toolCall", label: "Tool call", plural: "tool calls" },
  { kind: "error", label: "Error", plural: "errors" },
  { kind: "compaction", label: "Compaction", plural: "compactions" },
  { kind: "subagent", label: "Sub-agent", plural: "sub-agents" },
  { kind: "user", label: "User message", plural: "user messages" },
] as const satisfies readonly { kind: OutlineKind; label: string; plural: string }[];

export type JumpKind = (typeof JUMP_KINDS)[number]["kind"];

export type Jump =
  | { to: "first" }
  | { to: "last" }
  | { to: "turn"; index: number }
  | { to: "step"; direction: 1 | -1 }
  | { to: "kind"; kind: JumpKind; direction: 1 | -1 };

/**
 * The index a jump lands on from the turn at the top of the screen (`current`), or null when
 * there is none that way (no later error). A turn number past the end lands on the last turn.
 * Jumps by kind need the outline.
 */
export function jumpTarget(
  jump: Jump,
  { current, turnCount, outline }: { current: number; turnCount: number; outline?: DecodedOutline | null },
): number | null {
  if (turnCount <= 0) return null;
  const last = turnCount - 1;
  switch (jump.to) {
    case "first":
      return 0;
    case "last":
      return last;
    case "turn":
      return Math.min(Math.max(0, Math.floor(jump.index)), last);
    case "step": {
      const target = current + jump.direction;
      return target < 0 || target > last ? null : target;
    }
    case "kind": {
      if (!outline) return null;
      const indexes = outline.kinds[jump.kind];
      const found = jump.direction === 1 ? nextIndex(indexes, current) : previousIndex(indexes, current);
      return found !== null && found <= last ? found : null;
    }
  }
}

/**
 * Which match of a find comes next: `at` is the position in `matches` shown now (null before the
 * first), `current` the turn at the top of the screen. The first step goes to the first match at
 * or after that turn (or the last one before it, going back); later steps go round.
 */
export function findStep(matches: readonly number[], at: number | null, direction: 1 | -1, current: number): number | null {
  if (matches.length === 0) return null;
  if (at === null) {
    if (direction === 1) {
      const after = matches.findIndex((index) => index >= current);
      return after === -1 ? 0 : after;
    }
    for (let i = matches.length - 1; i >= 0; i--) if (matches[i]! <= current) return i;
    return matches.length - 1;
  }
  return (at + direction + matches.length) % matches.length;
}

/**
 * The position in `matches` a find shows: the one stepped to, or, before any step of a find opened
 * from a search hit (its query still the hit's), the match of the turn the page landed on ("3 of
 * 17"). Worked out from both whichever arrives last: the find's answer came before the landing on
 * a busy machine, and the count then showed no position.
 */
export function shownMatch(find: {
  matches: readonly number[] | undefined;
  steppedTo: number | null;
  fromSearchHit: boolean;
  landedAt: number | null;
}): number | null {
  if (find.steppedTo !== null) return find.steppedTo;
  if (!find.fromSearchHit || find.landedAt === null || !find.matches) return null;
  const at = find.matches.indexOf(find.landedAt);
  return at === -1 ? null : at;
}

export type ReaderAction =
  "next-turn" | "previous-turn" | "first-turn" | "last-turn" | "find" | "toggle-outputs" | "toggle-all-outputs" | "help";

/** The keys of the page, for the "?" overlay and the handler alike. */
export const READER_KEYS: readonly KeyBinding<ReaderAction>[] = [
  { keys: ["j"], action: "next-turn", label: "Next turn" },
  { keys: ["k"], action: "previous-turn", label: "Previous turn" },
  { keys: ["g"], action: "first-turn", label: "First turn" },
  { keys: ["G"], action: "last-turn", label: "Last turn" },
  { keys: ["/"], action: "find", label: "Find in thread" },
  { keys: ["o"], action: "toggle-outputs", label: "Open or close the tool outputs of the turn at the top" },
  { keys: ["O"], action: "toggle-all-outputs", label: "Open or close every tool output (Shift+O)" },
  { keys: ["?"], action: "help", label: "Show these shortcuts" },
];

/**
 * What the server renders of a long thread: at least this many turns (a first screen), and never more than this many bytes' worth.
 * @internal exported for its tests
 */
export const HEAD_MIN_TURNS = 5;
const HEAD_BUDGET_BYTES = 250_000;
/** The markup of a turn around its text, and what the page carries of a text: its HTML and its copy in the React payload, at most a preview. */
const TURN_MARKUP_BYTES = 4_000;
const TEXT_FACTOR = 2.5;
const TEXT_CAP = 8_192;

/**
 * Roughly what a turn adds to the page's HTML (a turn shows previews of long texts: each counts up to TEXT_CAP).
 * @internal exported for its tests
 */
export function pageWeight(turn: Pick<Turn, "content" | "parts">): number {
  const texts = turn.parts?.some((p) => p.type !== "text") ? turn.parts.map((p) => JSON.stringify(p).length) : [turn.content.length];
  return TURN_MARKUP_BYTES + TEXT_FACTOR * texts.reduce((sum, length) => sum + Math.min(length, TEXT_CAP), 0);
}

/**
 * How many of a thread's first turns the server renders: all it read, unless they weigh more than
 * the budget (long tool outputs, long answers): then as many as fit, and at least HEAD_MIN_TURNS.
 * The browser renders the others as it does the rest of the thread.
 */
export function headCount(turns: readonly Pick<Turn, "content" | "parts">[], budget = HEAD_BUDGET_BYTES): number {
  let total = 0;
  for (const [i, turn] of turns.entries()) {
    total += pageWeight(turn);
    if (total > budget && i >= HEAD_MIN_TURNS) return i;
  }
  return turns.length;
}
