/**
 * Opening and closing tool outputs by keyboard on the thread page (o: the turn at the top, Shift+O:
 * all). A tool output is a tool call's card (its arguments and result) or a result card shown
 * apart from its call (turn-parts.tsx), each a <details>.
 */
export const TOOL_OUTPUT_SELECTOR = '[data-testid="tool-call"] > details, details[data-testid^="tool-result"]';

type Fold = { open: boolean };

/** Opens them all when any is closed, else closes them all; answers whether they are now open (null: there were none). */
export function toggleFolds(folds: readonly Fold[]): boolean | null {
  if (folds.length === 0) return null;
  const open = folds.some((fold) => !fold.open);
  for (const fold of folds) fold.open = open;
  return open;
}

/** The status line after a toggle of one turn's outputs. */
export function turnToggleStatus(number: number, open: boolean | null, count: number): string {
  if (open === null) return `Turn ${number} has no tool outputs.`;
  return `${open ? "Opened" : "Closed"} ${count === 1 ? "the tool output" : `${count} tool outputs`} of turn ${number}.`;
}
