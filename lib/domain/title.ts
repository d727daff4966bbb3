export const TITLE_MAX_LENGTH = 100;

/**
 * A thread's default title: the first user turn, whitespace collapsed, cut to 100 characters
 * (by code point, so an emoji is never split). Null when the text is blank.
 */
export function titleFromContent(content: string): string | null {
  const collapsed = content.replace(/\s+/g, " ").trim();
  if (!collapsed) return null;
  const chars = Array.from(collapsed);
  return chars.length <= TITLE_MAX_LENGTH ? collapsed : chars.slice(0, TITLE_MAX_LENGTH).join("");
}

/** What the UI shows for a thread without a title. */
export function displayTitle(title: string | null): string {
  return title ?? "Untitled thread";
}
