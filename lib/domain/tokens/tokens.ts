/**
 * PAL's reported-total estimate: characters / 4, rounded down. A placeholder until real
 * tokenizers are stored per turn; always labelled an estimate.
 */
export function estimateTokens(text: string): number {
  return Math.floor(text.length / 4);
}
