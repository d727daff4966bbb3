const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "22 Nov 2026, 03:25 UTC". Deterministic (UTC, no locale), so server and client render the
 * same text and hydration never disagrees.
 */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** 1234 -> "1.2k", 1234567 -> "1.2M". */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** "1 turn", "2 turns". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The start of a long text, for a preview: at most `maxChars`, cut at the last line break within
 * them; when that would keep less than half (a very long line), cut at `maxChars` instead, never
 * inside a surrogate pair.
 */
export function contentPreview(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const lineBreak = text.lastIndexOf("\n", maxChars - 1);
  if (lineBreak >= maxChars / 2) return text.slice(0, lineBreak);
  const code = text.charCodeAt(maxChars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars);
}
