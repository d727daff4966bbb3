import { maskSecrets } from "./detect";

/** The most of a caller's value an error message shows, counted after masking. */
const QUOTED_INPUT_MAX = 100;

/**
 * A caller's value as an error message quotes it: secrets masked first, then cut at `max`
 * characters with an ellipsis, then written as a JSON string. The order is the point: a secret
 * cut before it is masked is no longer recognizable, so masking the answer afterwards (as
 * handleRoute does) would let its first half through. The one way a message repeats input.
 */
export function quoteInput(value: string, max = QUOTED_INPUT_MAX): string {
  const masked = maskSecrets(value);
  if (masked.length <= max) return JSON.stringify(masked);
  // Never half a surrogate pair: JSON.stringify would write it as an escape.
  const end = /[\uD800-\uDBFF]/.test(masked[max - 1]!) ? max - 1 : max;
  return JSON.stringify(`${masked.slice(0, end)}…`);
}
