/** Share of the budget kept from the start of an output; the rest comes from its end. */
const HEAD_SHARE = 0.6;

/**
 * Cuts a long tool output to its head and tail around a marker, so the model still sees how the
 * output began (the command, the headers) and how it ended (the error, the summary line), as
 * Gemini CLI's preview does. `maxChars` counts the kept text; the marker comes on top.
 * Returns the text unchanged when it fits or when maxChars is 0 (co-cli: 0 disables trimming).
 */
export function trimText(text: string, maxChars: number): string {
  if (!Number.isFinite(maxChars) || maxChars < 0) throw new RangeError(`maxChars must be a number >= 0 (0 disables); got ${maxChars}.`);
  if (maxChars === 0 || text.length <= maxChars) return text;
  const budget = Math.floor(maxChars);
  let headEnd = Math.ceil(budget * HEAD_SHARE);
  let tailStart = text.length - (budget - headEnd);
  // Never leave half of a surrogate pair: drop it from the cut side, which stays within budget.
  if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return text.slice(0, headEnd) + trimMarker(text.length) + text.slice(tailStart);
}

/** The line that stands where the middle of an output was cut. */
export function trimMarker(totalChars: number): string {
  return `\n[...truncated, ${totalChars} chars total]\n`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
