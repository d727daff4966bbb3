/**
 * Where each agent's policy would compact (or trim) a conversation, in tokens of context used,
 * for a model's window. The figures are the agents' published defaults:
 * - Claude Code: auto-compacts about 33k tokens before the window is full.
 * - Codex CLI: at 90% of the window.
 * - Gemini CLI: at 50% of the window (model.compressionThreshold).
 * - OpenCode: when the window minus min(20k, the model's max output) is used.
 * - Pi: window - 16,384.
 * - Aider: summarises chat history over min(max(window / 16, 1k), 8k) tokens (history only).
 */
export type CompactionPolicy = { agent: string; threshold: number; rule: string; historyOnly: boolean };

export function compactionPolicies(contextWindow: number, maxOutputTokens: number | null): CompactionPolicy[] {
  const output = maxOutputTokens ?? 32_000;
  const policies: CompactionPolicy[] = [
    { agent: "Claude Code", threshold: contextWindow - 33_000, rule: "window - 33k", historyOnly: false },
    { agent: "Codex", threshold: Math.floor(contextWindow * 0.9), rule: "90% of window", historyOnly: false },
    { agent: "Gemini CLI", threshold: Math.floor(contextWindow * 0.5), rule: "50% of window", historyOnly: false },
    { agent: "OpenCode", threshold: contextWindow - Math.min(20_000, output), rule: "window - min(20k, max output)", historyOnly: false },
    { agent: "Pi", threshold: contextWindow - 16_384, rule: "window - 16,384", historyOnly: false },
    {
      agent: "Aider",
      threshold: Math.min(Math.max(Math.floor(contextWindow / 16), 1_000), 8_000),
      rule: "history over min(max(window/16, 1k), 8k)",
      historyOnly: true,
    },
  ];
  return policies.filter((p) => p.threshold > 0);
}

/** Running totals of per-turn tokens, and the first turn (1-based) at which each policy fires. */
export function cumulativeTokens(perTurn: number[]): number[] {
  let sum = 0;
  return perTurn.map((tokens) => (sum += tokens));
}

export function firstTurnOver(cumulative: number[], threshold: number): number | null {
  const index = cumulative.findIndex((total) => total > threshold);
  return index === -1 ? null : index + 1;
}
