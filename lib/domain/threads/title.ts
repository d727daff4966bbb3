import { maskSecrets } from "../secrets/detect";

const TITLE_MAX_LENGTH = 100;
/** How long a title may be where it is shown on one line (the list, links, chain and lineage). */
const SHOWN_TITLE_LENGTH = 80;
const ELLIPSIS = "…";

/**
 * `text` with whitespace collapsed, at most `max` code points: cut at the last word boundary that
 * fits, with "…" (counted in `max`). Word boundaries are the language's (Intl.Segmenter: between
 * two Chinese or Japanese words as between two English ones). A word too long to end on (a URL, a
 * path, text without boundaries) is cut inside when keeping whole words would leave less than
 * half. Never splits a code point. The one helper every shown or stored cut title goes through.
 */
export function cutTitle(text: string, max: number = TITLE_MAX_LENGTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  const room = Math.max(1, max - 1);
  // Only the start is segmented: a title may be cut from a long text.
  const head = chars.slice(0, room + 1).join("");
  let kept = "";
  let keptLength = 0;
  for (const { segment } of wordSegmenter().segment(head)) {
    const length = Array.from(segment).length;
    if (keptLength + length > room) break;
    kept += segment;
    keptLength += length;
  }
  kept = kept.replace(/[\s,;:(\[{'"“‘«\-–—/]+$/u, "");
  if (Array.from(kept).length < room / 2) kept = chars.slice(0, room).join("").trimEnd();
  return `${kept}${ELLIPSIS}`;
}

let segmenter: Intl.Segmenter | null = null;
function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return segmenter;
}

/** A title as shown where space is short: cut (cutTitle) to `max`, with the whole one to put in a tooltip (the title attribute). */
export function shownTitle(title: string | null, max: number = SHOWN_TITLE_LENGTH): { text: string; full: string; cut: boolean } {
  const full = displayTitle(title);
  const text = cutTitle(full, max);
  return { text, full, cut: text !== full.replace(/\s+/g, " ").trim() };
}

/**
 * A thread's default title: the first user turn, whitespace collapsed, cut to 100 characters at a
 * word boundary with "…" (cutTitle). Null when the text is blank. Reads only as far as the title
 * needs: a turn can be megabytes long.
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
  const title = cutTitle(masked, TITLE_MAX_LENGTH);
  if (title === masked) return masked;
  // Never half a mask: "[GitHub tok…" says less than nothing.
  const body = title.slice(0, -ELLIPSIS.length);
  const open = body.lastIndexOf("[");
  if (open > 0 && !body.includes("]", open) && MASK_START.test(masked.slice(open))) return `${body.slice(0, open).trimEnd()}${ELLIPSIS}`;
  return title;
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

/**
 * Wrappers agents put around what a person did not type: Claude Code's slash commands, their
 * output and caveats, hook and system reminders; Codex's environment, instructions and notices;
 * Gemini CLI's and others' context blocks.
 */
const INJECTED_BLOCK =
  /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|task-notification|system-reminder|environment_context|environment|user_instructions|permissions instructions|INSTRUCTIONS|turn_aborted|user_shell_command|subagent_notification|skill|context|system|session_context|ide_context)(\s[^>]*)?>/i;
/** An agent's own instructions sent as the first user message ("You are an AI agent that brings the power of Gemini..."), or its notices ("System: Please continue."). */
const PREAMBLE =
  /^\s*(?:you are (?:an? )?(?:ai|interactive|helpful|autonomous|expert|coding|large language|cli|software engineering)\b[^\n.]{0,80}?\b(?:agent|assistant|model)\b|system:|# AGENTS\.md instructions|# CLAUDE\.md|# GEMINI\.md|Caveat: The messages below were generated)/i;

/**
 * Whether a user turn's text is a prompt a person wrote, fit to name the thread: not blank, not a
 * system preamble, not a command's caveat or output, not an environment or context block.
 */
export function isRealPrompt(text: string): boolean {
  return text.trim() !== "" && !INJECTED_BLOCK.test(text) && !PREAMBLE.test(text);
}
