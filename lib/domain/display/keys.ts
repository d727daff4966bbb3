/**
 * A page's keyboard shortcuts, as data: which key does what, shown in its "?" dialog and used by
 * its handler alike (components/ui/use-page-keys.ts). The thread list and the thread page each
 * have a table of them; both go through `keyAction`.
 */
export type KeyBinding<A extends string> = {
  /** KeyboardEvent.key values ("j", "G", "/", "Enter"). */
  keys: string[];
  action: A;
  label: string;
};

export type KeyInput = {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** Where the key was typed: a field takes its own keys (the composer!). */
  target?: { tagName?: string; isContentEditable?: boolean } | null;
};

const TYPING_TAGS = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** Whether a key went to a field (or editable text), which keeps its keys. */
function isTyping(target: KeyInput["target"]): boolean {
  return Boolean(target && (target.isContentEditable || TYPING_TAGS.has((target.tagName ?? "").toUpperCase())));
}

/** The action a key press stands for, or null: none while typing in a field or with Ctrl, Cmd or Alt held. */
export function keyAction<A extends string>(bindings: readonly KeyBinding<A>[], input: KeyInput): A | null {
  if (input.ctrlKey || input.metaKey || input.altKey || isTyping(input.target)) return null;
  return bindings.find((entry) => entry.keys.includes(input.key))?.action ?? null;
}

/**
 * The item a j/k step selects in a list of ids: the next or previous of the one selected, the
 * first (or, going back, the last) when none is, or one gone from the list; it stays at the ends.
 */
export function stepSelection(ids: readonly string[], selected: string | null, direction: 1 | -1): string | null {
  if (ids.length === 0) return null;
  const at = selected === null ? -1 : ids.indexOf(selected);
  if (at === -1) return direction === 1 ? ids[0]! : ids[ids.length - 1]!;
  return ids[Math.min(Math.max(at + direction, 0), ids.length - 1)]!;
}
