export const TITLE_MAX_LENGTH = 100;

/**
 * A thread's default title: the first user turn, whitespace collapsed, cut to 100 characters
 * (by code point, so an emoji is never split). Null when the text is blank. Reads only as far as
 * the title needs: a turn can be megabytes long.
 */
export function titleFromContent(content: string): string | null {
  // Enough UTF-16 units for more than TITLE_MAX_LENGTH code points (each is one or two units).
  const enough = 2 * (TITLE_MAX_LENGTH + 1);
  const words: string[] = [];
  let length = 0;
  for (const [word] of content.matchAll(/\S+/g)) {
    words.push(word.length > enough ? word.slice(0, enough) : word);
    length += word.length + 1;
    if (length > enough) break;
  }
  if (words.length === 0) return null;
  const collapsed = words.join(" ");
  const chars = Array.from(collapsed);
  return chars.length <= TITLE_MAX_LENGTH ? collapsed : chars.slice(0, TITLE_MAX_LENGTH).join("");
}

/** What the UI shows for a thread without a title. */
export function displayTitle(title: string | null): string {
  return title ?? "Untitled thread";
}
