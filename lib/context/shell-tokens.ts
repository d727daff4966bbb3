import { turnShell, type HistoryTurnOutline } from "@/lib/domain/history";

/**
 * Counts turn shells (the turn text without its content, see turnShell) for a whole chain fast.
 * Shells differ mostly in their turn number, and BPE tokenizers split runs of digits into pieces
 * of their own (o200k, cl100k and Llama 3 all do), so a shell's count is its template's (the
 * same shell numbered 1) with the count of "1" swapped for the count of the real number. That is
 * exact for those tokenizers and within a token for the calibrated estimates, which round; each
 * distinct template is counted once instead of 10,000 shells each time. Pass `templates` to keep
 * template counts across calls (one map per tokenizer).
 */
/** Bound on a kept template map: a few MB at most. */
const MAX_TEMPLATES = 50_000;

export function turnShellCounter(
  count: (text: string) => number | undefined,
  templates = new Map<string, number>(),
): (turn: HistoryTurnOutline, turnNumber: number) => number {
  // `count` may not know a text yet (build-context counts those on the worker and asks again):
  // the shell is then 0 for now, and nothing unknown is kept.
  return (turn, turnNumber) => {
    const template = turnShell(turn, 1);
    let tokens = templates.get(template);
    if (tokens === undefined) {
      tokens = count(template);
      if (tokens === undefined) return 0;
      if (templates.size >= MAX_TEMPLATES) templates.delete(templates.keys().next().value!);
      templates.set(template, tokens);
    }
    if (turnNumber === 1) return tokens;
    const one = number(1);
    const digits = number(turnNumber);
    return one === undefined || digits === undefined ? 0 : tokens - one + digits;
  };

  function number(n: number): number | undefined {
    const key = `#${n}`; // kept beside the templates, which all start with "\n---"
    let tokens = templates.get(key);
    if (tokens === undefined) {
      tokens = count(String(n));
      if (tokens !== undefined) templates.set(key, tokens);
    }
    return tokens;
  }
}
