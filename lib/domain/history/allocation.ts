/**
 * Token allocation for conversation history, as PAL's ModelContext.calculate_token_allocation.
 *
 * Source verified (identical in every upstream-tracking copy read):
 *   tanji-dg/pal-mcp-server utils/model_context.py @ 11cce914bb9828a7375d89f47a27dac72b34c91c
 *   2000teddy/pal-mcp-server utils/model_context.py @ 31ceacdbb97c7a169aed4e7573eadaeccdc64bf5
 *   williaby/zen-mcp-server  utils/model_context.py @ a7c9200081538594a3f59cfc0d2424c1f60d041a
 *
 *     if total_tokens < 300_000:  content 0.6, response 0.4, file 0.3, history 0.5
 *     else:                       content 0.8, response 0.2, file 0.4, history 0.4
 *     content_tokens  = int(total_tokens * content_ratio)
 *     response_tokens = reserved_for_response or int(total_tokens * response_ratio)
 *     file_tokens     = int(content_tokens * file_ratio)
 *     history_tokens  = int(content_tokens * history_ratio)
 *
 * Every step multiplies by the same float ratio and truncates (Python int() of a float rounds
 * toward zero: Math.trunc), so odd windows round down at each step: 299,999 gives content 179,999
 * and response 119,999, which add up to 299,998, not the total.
 */

/** Context windows at or above this use the generous 80/20 split. */
const LARGE_CONTEXT_THRESHOLD = 300_000;

export type TokenAllocation = {
  /** The model's context window. */
  total: number;
  /** Budget for everything sent to the model (prompt, files, history). */
  content: number;
  /** Budget kept for the model's answer. */
  response: number;
  /** Part of `content` for files embedded in the history. */
  file: number;
  /** Part of `content` for the history text as a whole (its embedded files count against it too). */
  history: number;
};

type Ratios = { content: number; response: number; file: number; history: number };

const SMALL: Ratios = { content: 0.6, response: 0.4, file: 0.3, history: 0.5 };
const LARGE: Ratios = { content: 0.8, response: 0.2, file: 0.4, history: 0.4 };

/** Python's int() applied to a float: truncation toward zero. */
function pyInt(value: number): number {
  return Math.trunc(value);
}

function assertTokenCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

/**
 * Splits a context window into content, response, file and history budgets exactly as PAL does.
 *
 * `reserveForResponse` overrides the response share only: content, file and history are what PAL
 * computes from the window regardless, and `response` becomes the override. They are not
 * rebalanced, so content + response may exceed the window; that is PAL's behaviour and callers
 * that want a tighter content budget must shrink the window instead. As in PAL
 * (`reserved_for_response or ...`), 0, null and undefined all mean "no override".
 */
export function calculateTokenAllocation(contextWindow: number, reserveForResponse?: number | null): TokenAllocation {
  assertTokenCount("contextWindow", contextWindow);
  if (reserveForResponse != null) assertTokenCount("reserveForResponse", reserveForResponse);

  const ratios = contextWindow < LARGE_CONTEXT_THRESHOLD ? SMALL : LARGE;
  const content = pyInt(contextWindow * ratios.content);
  const response = reserveForResponse || pyInt(contextWindow * ratios.response);
  const file = pyInt(content * ratios.file);
  const history = pyInt(content * ratios.history);
  return { total: contextWindow, content, response, file, history };
}
