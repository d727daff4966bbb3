import { maskSecrets } from "./secrets/detect";

export const TITLE_MAX_LENGTH = 100;

/**
 * A thread's default title: the first user turn, whitespace collapsed, cut to 100 characters
 * (by code point, so an emoji is never split). Null when the text is blank. Reads only as far as
 * the title needs: a turn can be megabytes long.
 *
 * A title is a label, not a record: a secret in it is masked, as is the piece of one a cut would
 * leave (the turn keeps the value, for a reveal). A cut title pasted into another (a fork's
 * "<title> (fork)") would otherwise carry a piece no detector recognises, shown and searchable.
 */
export function titleFromContent(content: string): string | null {
  const words: string[] = [];
  let length = 0;
  for (const [word] of content.matchAll(/\S+/g)) {
    words.push(word.length > MASKED_WINDOW ? word.slice(0, MASKED_WINDOW) : word);
    length += word.length + 1;
    if (length > MASKED_WINDOW) break;
  }
  if (words.length === 0) return null;
  const masked = maskSecrets(words.join(" ").slice(0, MASKED_WINDOW));
  const chars = Array.from(masked);
  if (chars.length <= TITLE_MAX_LENGTH) return masked;
  const title = chars.slice(0, TITLE_MAX_LENGTH).join("");
  // Never half a mask: "[GitHub tok" says less than nothing.
  const open = title.lastIndexOf("[");
  return open > 0 && !title.includes("]", open) && MASK_START.test(masked.slice(open)) ? title.slice(0, open).trimEnd() : title;
}

/**
 * How much of the start of the text is masked before the cut: more than the title, so that a
 * secret which starts within the title is seen whole (or as a cut secret at the window's end).
 */
const MASKED_WINDOW = 1_024;
/** A mask as maskSecrets writes it ("[GitHub token …a41f]", "[cut secret …]"). */
const MASK_START = /^\[[A-Za-z][^\]\n]{0,60} …(?:[0-9a-f]{4})?\]/;

/** What the UI shows for a thread without a title. */
export function displayTitle(title: string | null): string {
  return title ?? "Untitled thread";
}
