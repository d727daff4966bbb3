import { describe, expect, it } from "vitest";
import { buildOutline, decodeOutline, type OutlineRow } from "@/lib/domain/threads/turn-outline";
import { keyAction, type KeyInput } from "@/lib/domain/display/keys";
import {
  findStep,
  HEAD_MIN_TURNS,
  headCount,
  jumpTarget,
  pageWeight,
  parseTurnHash,
  READER_KEYS,
  shownMatch,
  turnHash,
} from "./reader-nav";

const readerKeyAction = (input: KeyInput) => keyAction(READER_KEYS, input);

describe("parseTurnHash / turnHash", () => {
  it("reads a turn number as shown on the page (1-based) and a turn id as TurnView's anchors write it", () => {
    expect(parseTurnHash("#turn-4000")).toEqual({ index: 3_999 });
    expect(parseTurnHash("turn-1")).toEqual({ index: 0 });
    expect(parseTurnHash("#turn-0B9A2C3E-1D2A-4B5C-8D9E-0A1B2C3D4E5F")).toEqual({ turnId: "0b9a2c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f" });
    expect(turnHash(3_999)).toBe("#turn-4000");
    expect(parseTurnHash(turnHash(41))).toEqual({ index: 41 });
  });

  it("names no turn for anything else", () => {
    for (const hash of ["", "#", "#turn-", "#turn-0", "#turn--3", "#turn-1.5", "#turn-abc", "#main", "#turn-99999999999"])
      expect(parseTurnHash(hash)).toBeNull();
  });
});

describe("jumpTarget", () => {
  // 0 user, 1 assistant+call, 2 tool (error), 3 assistant+call, 4 tool, 5 compaction, 6 user, 7 assistant+call (sub-agent)
  const rows: OutlineRow[] = [
    { index: 0, role: "user", toolCall: false, error: false, compaction: false },
    { index: 1, role: "assistant", toolCall: true, error: false, compaction: false },
    { index: 2, role: "tool", toolCall: false, error: true, compaction: false },
    { index: 3, role: "assistant", toolCall: true, error: false, compaction: false },
    { index: 4, role: "tool", toolCall: false, error: false, compaction: false },
    { index: 5, role: "system", toolCall: false, error: false, compaction: true },
    { index: 6, role: "user", toolCall: false, error: false, compaction: false },
    { index: 7, role: "assistant", toolCall: true, error: false, compaction: false },
  ];
  const outline = decodeOutline(buildOutline(rows, [7]));
  const at = (current: number) => ({ current, turnCount: 8, outline });

  it("goes to the first, the last, a numbered turn (clamped) and steps one turn, not past either end", () => {
    expect(jumpTarget({ to: "first" }, at(5))).toBe(0);
    expect(jumpTarget({ to: "last" }, at(0))).toBe(7);
    expect(jumpTarget({ to: "turn", index: 3 }, at(0))).toBe(3);
    expect(jumpTarget({ to: "turn", index: 99 }, at(0))).toBe(7);
    expect(jumpTarget({ to: "turn", index: -4 }, at(0))).toBe(0);
    expect(jumpTarget({ to: "step", direction: 1 }, at(3))).toBe(4);
    expect(jumpTarget({ to: "step", direction: -1 }, at(3))).toBe(2);
    expect(jumpTarget({ to: "step", direction: 1 }, at(7))).toBeNull();
    expect(jumpTarget({ to: "step", direction: -1 }, at(0))).toBeNull();
    expect(jumpTarget({ to: "first" }, { current: 0, turnCount: 0 })).toBeNull();
  });

  it("goes to the next or previous turn of a kind, strictly after or before the current one", () => {
    expect(jumpTarget({ to: "kind", kind: "toolCall", direction: 1 }, at(1))).toBe(3);
    expect(jumpTarget({ to: "kind", kind: "toolCall", direction: -1 }, at(3))).toBe(1);
    expect(jumpTarget({ to: "kind", kind: "error", direction: 1 }, at(0))).toBe(2);
    expect(jumpTarget({ to: "kind", kind: "error", direction: 1 }, at(2))).toBeNull();
    expect(jumpTarget({ to: "kind", kind: "compaction", direction: -1 }, at(7))).toBe(5);
    expect(jumpTarget({ to: "kind", kind: "subagent", direction: 1 }, at(0))).toBe(7);
    expect(jumpTarget({ to: "kind", kind: "user", direction: 1 }, at(0))).toBe(6);
    expect(jumpTarget({ to: "kind", kind: "user", direction: 1 }, { current: 0, turnCount: 8, outline: null })).toBeNull();
  });
});

describe("findStep", () => {
  const matches = [10, 200, 4_997];
  it("starts from the screen: the first match at or after the top turn, or the last before it going back", () => {
    expect(findStep(matches, null, 1, 0)).toBe(0);
    expect(findStep(matches, null, 1, 150)).toBe(1);
    expect(findStep(matches, null, 1, 200)).toBe(1);
    expect(findStep(matches, null, 1, 4_998)).toBe(0);
    expect(findStep(matches, null, -1, 150)).toBe(0);
    expect(findStep(matches, null, -1, 5)).toBe(2);
  });

  it("then goes round the matches", () => {
    expect(findStep(matches, 0, 1, 0)).toBe(1);
    expect(findStep(matches, 2, 1, 0)).toBe(0);
    expect(findStep(matches, 0, -1, 0)).toBe(2);
    expect(findStep([], null, 1, 0)).toBeNull();
  });
});

describe("READER_KEYS", () => {
  it("maps j/k, g/G, / and ? to their actions", () => {
    expect(readerKeyAction({ key: "j" })).toBe("next-turn");
    expect(readerKeyAction({ key: "k" })).toBe("previous-turn");
    expect(readerKeyAction({ key: "g" })).toBe("first-turn");
    expect(readerKeyAction({ key: "G" })).toBe("last-turn");
    expect(readerKeyAction({ key: "/" })).toBe("find");
    expect(readerKeyAction({ key: "?" })).toBe("help");
    expect(readerKeyAction({ key: "o" })).toBe("toggle-outputs");
    expect(readerKeyAction({ key: "O" })).toBe("toggle-all-outputs");
    expect(readerKeyAction({ key: "x" })).toBeNull();
    expect(readerKeyAction({ key: "J" })).toBeNull();
  });

  it("leaves keys alone while typing (the composer, the find box) and with Ctrl, Cmd or Alt", () => {
    expect(readerKeyAction({ key: "j", target: { tagName: "TEXTAREA" } })).toBeNull();
    expect(readerKeyAction({ key: "/", target: { tagName: "input" } })).toBeNull();
    expect(readerKeyAction({ key: "g", target: { tagName: "SELECT" } })).toBeNull();
    expect(readerKeyAction({ key: "k", target: { tagName: "DIV", isContentEditable: true } })).toBeNull();
    expect(readerKeyAction({ key: "j", target: { tagName: "BUTTON" } })).toBe("next-turn");
    expect(readerKeyAction({ key: "g", ctrlKey: true })).toBeNull();
    expect(readerKeyAction({ key: "k", metaKey: true })).toBeNull();
    expect(readerKeyAction({ key: "j", altKey: true })).toBeNull();
  });
});

describe("headCount", () => {
  const plain = (chars: number) => ({ content: "x".repeat(chars), parts: null });
  it("renders every turn read while they are light, as many as fit the budget when they are heavy, and never fewer than a screenful", () => {
    expect(headCount(Array.from({ length: 50 }, () => plain(300)))).toBe(50);
    const heavy = Array.from({ length: 50 }, () => plain(100_000));
    const fit = headCount(heavy, 250_000);
    expect(fit).toBeGreaterThanOrEqual(HEAD_MIN_TURNS);
    expect(fit).toBeLessThan(50);
    expect(fit * pageWeight(heavy[0]!)).toBeLessThanOrEqual(250_000 + pageWeight(heavy[0]!) * HEAD_MIN_TURNS);
    expect(headCount(heavy.slice(0, 3), 1)).toBe(3);
    expect(headCount([])).toBe(0);
  });

  it("weighs a structured turn by its parts (each shown as a preview at most), a plain one by its content", () => {
    const call = { content: "", parts: [{ type: "tool_call" as const, id: "c", name: "Read", arguments: { path: "x".repeat(50_000) } }] };
    expect(pageWeight(call)).toBe(pageWeight(plain(8_192)));
    expect(pageWeight(plain(10))).toBeLessThan(pageWeight(plain(1_000)));
  });
});

describe("shownMatch", () => {
  const matches = [2, 3, 40];
  it("opened from a search hit, shows the match of the turn it landed on, whichever of the answer and the landing came first", () => {
    const before = { matches, steppedTo: null, fromSearchHit: true };
    // The answer first, the landing after it (a busy machine), and the other way round: the same position.
    expect(shownMatch({ ...before, landedAt: null })).toBeNull();
    expect(shownMatch({ ...before, landedAt: 3 })).toBe(1);
    expect(shownMatch({ ...before, matches: undefined, landedAt: 3 })).toBeNull();
  });
  it("shows the match stepped to, and no position for a find typed on the page or a landing on a turn without a match", () => {
    expect(shownMatch({ matches, steppedTo: 2, fromSearchHit: true, landedAt: 3 })).toBe(2);
    expect(shownMatch({ matches, steppedTo: null, fromSearchHit: false, landedAt: 3 })).toBeNull();
    expect(shownMatch({ matches, steppedTo: null, fromSearchHit: true, landedAt: 7 })).toBeNull();
  });
});
