import { readableText, stripEscapeCodes } from "../display/transcript-display";
import { collectReferences } from "./references";
import { hasText, isPrompt, partsOf, toolOutputs, turnText } from "./turn-content";
import type { CompactionTurn } from "./types";

export type ExtractiveOptions = { instructions?: string; maxChars?: number };
/** @internal exported for its tests */
export const DEFAULT_SUMMARY_CHARS = 4_000;

/**
 * The offline, deterministic summariser: Markdown sections that cover what co-cli's summariser
 * prompt asks an LLM to preserve (requests, decisions and outcomes, file paths and tool names,
 * errors and their resolutions, pending tasks), built from sentences of the turns themselves.
 *
 * Everything but "Files and tools referenced" fits in `maxChars` (default 4,000): sections are cut
 * in proportion to their size, with a "(N more)" note. The references section is never cut, so a
 * summary always passes the missing-references guard. Linear in the size of the turns.
 */
export function extractiveSummary(turns: CompactionTurn[], options: ExtractiveOptions = {}): string {
  const instructions = options.instructions?.replace(/\s+/g, " ").trim() ?? "";
  const maxChars = Math.max(0, options.maxChars ?? DEFAULT_SUMMARY_CHARS);
  const focus = focusWords(instructions);
  const reader = new TurnReader(turns);

  const sections: Section[] = [
    { title: "User requests", items: userRequests(reader) },
    { title: "Decisions and outcomes", items: decisions(reader, focus) },
    { title: "Files and tools referenced", items: referenceItems(turns), whole: true },
    { title: "Errors and resolutions", items: errors(reader) },
    { title: "Open tasks and next steps", items: openTasks(reader) },
  ].filter((section) => section.items.length > 0);

  // Long instructions are shortened so the focus line cannot eat the budget.
  const focusLine = instructions ? `Focus: ${shorten(instructions, Math.max(1, Math.min(500, maxChars - 7)))}` : null;
  if (sections.length === 0) return [focusLine, "(The summarised turns have no text.)"].filter(Boolean).join("\n\n");
  return layout(focusLine, sections, maxChars, focus);
}

// ---------------------------------------------------------------------------------------------
// Sections

type Item = {
  text: string;
  /** Position in the section as shown (chronological). */
  order: number;
  /** Which items survive a cut first: lower is kept first. */
  rank: number;
};
type Section = { title: string; items: Item[]; whole?: boolean };

const REQUEST_CHARS = 240;
const SENTENCE_CHARS = 300;
const ERROR_CHARS = 220;
/** Open tasks come from the end of the summarised run: earlier ones were usually done since. */
const OPEN_TASK_TURNS = 12;
/** How far after an error to look for the assistant saying how it was fixed. */
const RESOLUTION_TURNS = 8;

const DECISION =
  /\b(?:decid(?:e|ed|es|ing)|decision|will|fix(?:ed|es)?|add(?:ed|s)?|chang(?:e|ed|es)|implement(?:ed|s)?|updat(?:e|ed|es)|creat(?:ed|es)|remov(?:ed|es)|renam(?:ed|es)|replac(?:ed|es)|switch(?:ed|es)|chose|resolv(?:ed|es)|confirm(?:ed|s)?|the answer is|because|root cause|result(?:s|ed)?|passes|works)\b/i;
const ERROR_WORD = /\b(?:errors?|exceptions?|fail(?:ed|s|ing|ure)?|traceback|crash(?:ed|es)?|panic(?:ked)?|HTTP [45]\d\d|40[134])\b/i;
// Error types by name (TypeError, ValueError, NullPointerException): case matters, "terror" is not one.
const ERROR_TYPE = /\b[A-Z]\w*(?:Error|Exception)\b/;
const isErrorText = (text: string) => ERROR_WORD.test(text) || ERROR_TYPE.test(text);
/**
 * A tool output not flagged isError counts as a failure only on a stronger sign than the word
 * "error": read_file on any source file would otherwise fill the section.
 */
const TOOL_FAILURE =
  /^\s*(?:error|fatal|fail(?:ed|ure)?)\b|\b[A-Z]\w*(?:Error|Exception)\b:|^Traceback \(most recent call last\)|\b\d+ (?:failed|failing|errors?)\b|\bexit(?:ed with)? (?:code|status) [1-9]/im;
const FIX =
  /\b(?:fix(?:ed|es)?|resolv(?:e|ed|es)|solution|workaround|root cause|because|instead|the answer is|chang(?:e|ed|ing)|should|passes|works now|no longer)\b/i;
const OPEN_TASK = /\b(?:TODO|FIXME|next steps?|next|remaining|remains|still needs?|still need to|pending|follow[- ]ups?|not yet)\b/i;

function userRequests(reader: TurnReader): Item[] {
  const items: Item[] = [];
  reader.turns.forEach((turn, i) => {
    if (!isPrompt(turn)) return;
    const sentences = reader.sentences(i);
    const gist = sentences.length > 0 ? sentences.slice(0, 2).join(" ") : collapse(reader.text(i));
    // A turn that is only injected context (a caveat, a reminder) asked nothing.
    if (gist === "") return;
    items.push({ text: `- Turn ${numberOf(turn)}: "${shorten(gist, REQUEST_CHARS)}"`, order: items.length, rank: 0 });
  });
  // The first request usually states the goal; after it, the newest matter most.
  return items.map((item, k) => ({ ...item, rank: k === 0 ? -1 : items.length - k }));
}

function decisions(reader: TurnReader, focus: Focus): Item[] {
  const finals = finalAnswer(reader);
  const seen = new Set<string>();
  for (const f of finals) for (const sentence of f.sentences) seen.add(key(sentence));
  const items: Item[] = [];
  const focusNeeded = Math.min(2, focus.size);

  reader.turns.forEach((turn, i) => {
    if (turn.role !== "assistant") return;
    for (const sentence of reader.sentences(i)) {
      if (!DECISION.test(sentence) && !(focusNeeded > 0 && overlap(sentence, focus) >= focusNeeded)) continue;
      const k = key(sentence);
      if (seen.has(k)) continue;
      seen.add(k);
      items.push({ text: `- Turn ${numberOf(turn)}: ${shorten(sentence, SENTENCE_CHARS)}`, order: items.length, rank: 0 });
    }
  });
  // Newest first when cutting; the final answer goes last and is kept first.
  const ranked = items.map((item, k) => ({ ...item, rank: items.length - k }));
  for (const f of [...finals].reverse()) {
    ranked.push({
      text: `- ${f.label} (turn ${numberOf(reader.turns[f.turn]!)}): ${shorten(f.text, SENTENCE_CHARS * 2)}`,
      order: ranked.length,
      rank: -1,
    });
  }
  return ranked;
}

type Final = { turn: number; label: string; text: string; sentences: string[] };

/**
 * The last assistant answer's first sentences. When that answer is only code (a patch, a test),
 * it is described, and the last answer in prose before it is added as the last explanation.
 */
function finalAnswer(reader: TurnReader): Final[] {
  const finals: Final[] = [];
  for (let i = reader.turns.length - 1; i >= 0; i--) {
    const turn = reader.turns[i]!;
    if (turn.role !== "assistant" || !hasText(turn)) continue;
    const sentences = reader.sentences(i).slice(0, 2);
    if (sentences.length > 0) {
      finals.push({ turn: i, label: finals.length === 0 ? "Final answer" : "Last explanation", text: sentences.join(" "), sentences });
      break;
    }
    if (finals.length === 0) finals.push({ turn: i, label: "Final answer", text: describeCode(reader.text(i)), sentences: [] });
  }
  return finals;
}

function describeCode(text: string): string {
  const language = /```([\w+-]+)/.exec(text)?.[1];
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("```")).length;
  return `${language ? `a ${language} code block` : "code"} (${lines} line${lines === 1 ? "" : "s"}).`;
}

function referenceItems(turns: CompactionTurn[]): Item[] {
  const refs = collectReferences(turns);
  const items: Item[] = [];
  // Each in backticks: a path matches verbatim and a tool name as a whole word.
  if (refs.paths.length > 0) items.push({ text: `- Files: ${refs.paths.map(code).join(", ")}`, order: 0, rank: 0 });
  if (refs.tools.length > 0) items.push({ text: `- Tools: ${refs.tools.map(code).join(", ")}`, order: 1, rank: 0 });
  return items;
}

function errors(reader: TurnReader): Item[] {
  const { turns } = reader;
  const toolNames = new Map<string, string>();
  for (const turn of turns) for (const part of partsOf(turn)) if (part.type === "tool_call") toolNames.set(part.id, part.name);

  const seen = new Set<string>();
  const items: Item[] = [];
  const push = (turnIndex: number, label: string, detail: string, resolution: { turn: number; sentence: string } | null) => {
    const k = key(detail);
    if (seen.has(k)) return;
    seen.add(k);
    let text = `- Turn ${numberOf(turns[turnIndex]!)}: ${label}"${shorten(detail, ERROR_CHARS)}"`;
    if (resolution) text += `\n  - Resolution (turn ${numberOf(turns[resolution.turn]!)}): ${shorten(resolution.sentence, SENTENCE_CHARS)}`;
    items.push({ text, order: items.length, rank: 0 });
  };

  turns.forEach((turn, i) => {
    for (const output of toolOutputs(turn)) {
      if (!output.isError && !TOOL_FAILURE.test(output.text)) continue;
      const name = (output.toolCallId && toolNames.get(output.toolCallId)) || turn.toolName || "tool";
      const label = output.isError ? `${name} returned an error: ` : `${name} output: `;
      // Within the turn, the text after the result may already say what was done about it.
      const sameTurn = output.partIndex === null ? null : fixAfterPart(turn, output.partIndex);
      push(i, label, errorLine(stripEscapeCodes(output.text)), sameTurn ? { turn: i, sentence: sameTurn } : reader.resolutionAfter(i));
    }
    // A tool turn's content is its output, read above.
    if (turn.role === "tool") return;
    for (const sentence of reader.sentences(i)) {
      if (isErrorText(sentence)) push(i, turn.role === "user" ? "reported " : "", sentence, reader.resolutionAfter(i));
    }
  });
  return items.map((item, k) => ({ ...item, rank: items.length - k }));
}

function openTasks(reader: TurnReader): Item[] {
  const seen = new Set<string>();
  const items: Item[] = [];
  const from = Math.max(0, reader.turns.length - OPEN_TASK_TURNS);
  for (let i = from; i < reader.turns.length; i++) {
    const turn = reader.turns[i]!;
    if (turn.role !== "user" && turn.role !== "assistant") continue;
    for (const sentence of reader.sentences(i)) {
      if (!OPEN_TASK.test(sentence)) continue;
      const k = key(sentence);
      if (seen.has(k)) continue;
      seen.add(k);
      items.push({ text: `- Turn ${numberOf(turn)}: ${shorten(sentence, SENTENCE_CHARS)}`, order: items.length, rank: 0 });
    }
  }
  return items.map((item, k) => ({ ...item, rank: items.length - k }));
}

// ---------------------------------------------------------------------------------------------
// Reading turns

/**
 * A turn as its page numbers it (#1 is the first): the summary points people at turns they can find.
 */
function numberOf(turn: CompactionTurn): string {
  return `#${turn.index + 1}`;
}

/**
 * Sentences per turn, split once and cached: sections read the same turns several times. A turn's
 * text is read as the page shows it (readableText): commands as typed, injected context, tags and
 * terminal escape codes left out.
 */
class TurnReader {
  private readonly cache = new Map<number, string[]>();
  private readonly texts = new Map<number, string>();
  private readonly fixes = new Map<number, string | null>();
  constructor(readonly turns: CompactionTurn[]) {}

  sentences(i: number): string[] {
    let found = this.cache.get(i);
    if (!found) {
      found = splitSentences(this.text(i));
      this.cache.set(i, found);
    }
    return found;
  }

  text(i: number): string {
    let found = this.texts.get(i);
    if (found === undefined) {
      const turn = this.turns[i]!;
      found = readableText(turn.role, turnText(turn));
      this.texts.set(i, found);
    }
    return found;
  }

  /** The first assistant sentence after turn i that says how something was fixed, nearby. */
  resolutionAfter(i: number): { turn: number; sentence: string } | null {
    const last = Math.min(this.turns.length - 1, i + RESOLUTION_TURNS);
    for (let j = i + 1; j <= last; j++) {
      if (this.turns[j]!.role !== "assistant") continue;
      const sentence = this.fixSentence(j);
      if (sentence) return { turn: j, sentence };
    }
    return null;
  }

  private fixSentence(j: number): string | null {
    if (!this.fixes.has(j)) this.fixes.set(j, this.sentences(j).find((s) => FIX.test(s)) ?? null);
    return this.fixes.get(j) ?? null;
  }
}

function fixAfterPart(turn: CompactionTurn, partIndex: number): string | null {
  const parts = partsOf(turn);
  for (let p = partIndex + 1; p < parts.length; p++) {
    const part = parts[p]!;
    if (part.type !== "text") continue;
    const sentence = splitSentences(stripEscapeCodes(part.text)).find((s) => FIX.test(s));
    if (sentence) return sentence;
  }
  return null;
}

/** The most telling line of a tool output: the first that names the error, else the first. */
function errorLine(output: string): string {
  let first: string | null = null;
  for (const raw of output.split("\n", 200)) {
    const line = raw.trim();
    if (!line) continue;
    if (isErrorText(line)) return line;
    first ??= line;
  }
  return first ?? collapse(output);
}

/**
 * Prose sentences of a Markdown text. Code blocks, tables and headings are left out: they are not
 * sentences, and the paths in them reach the summary through the references section.
 * @internal exported for its tests
 */
export function splitSentences(text: string): string[] {
  if (!text) return [];
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, "\n");
  const out: string[] = [];
  for (const rawLine of prose.split("\n")) {
    const trimmed = rawLine.trim();
    if (!trimmed || trimmed.startsWith("|") || trimmed.startsWith("#")) continue;
    const line = trimmed.replace(/^(?:[-*+]\s+|\d+[.)]\s+|>\s*)+/, "").replace(/\*\*|__/g, "");
    for (const piece of line.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'(\[*_])/)) {
      const sentence = piece.trim();
      if (sentence.length >= 3) out.push(sentence);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Instructions

const STOPWORDS = new Set(
  "the and for with that this from what which about into over only keep focus summary summarise summarize please all any are was were has have had not but you your our its how why when where who them they then than there their these those more most also just should would could".split(
    " ",
  ),
);

/** The instructions' content words, stemmed, and a pattern that finds them at the start of words. */
type Focus = { size: number; pattern: RegExp | null };

function focusWords(instructions: string): Focus {
  const stems = new Set<string>();
  for (const word of instructions.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? []) if (!STOPWORDS.has(word)) stems.add(stem(word));
  if (stems.size === 0) return { size: 0, pattern: null };
  // Longest first, so "tabs" is not read as "tab" + "s" when both are stems.
  const alternatives = [...stems].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return { size: stems.size, pattern: new RegExp(`\\b(${alternatives.join("|")})`, "gi") };
}

/** How many of the focus words a text shares (prefix match: "tabs" shares "tab"). One scan per text. */
function overlap(text: string, focus: Focus): number {
  if (!focus.pattern) return 0;
  const shared = new Set<string>();
  for (const match of text.matchAll(focus.pattern)) shared.add(match[1]!.toLowerCase());
  return shared.size;
}

/** A crude stem, enough for "tabs" to meet "tab" and "refreshing" to meet "refresh". */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

// ---------------------------------------------------------------------------------------------
// Layout within the budget

const SEPARATOR = "\n\n";

function renderSection(section: Section, items: Item[], omitted: number): string {
  const lines = [`## ${section.title}`, ...items.map((item) => item.text)];
  if (omitted > 0) lines.push(moreNote(omitted));
  return lines.join("\n");
}

const moreNote = (omitted: number) => `- (${omitted} more)`;

/**
 * Joins the sections, cutting all but the whole ones to fit maxChars: each gets a share of the room
 * in proportion to its size and keeps its best-ranked items that fit (items sharing words with the
 * instructions first); room a section leaves unused goes to the others in a second pass. Only when
 * even the headings do not fit are the last sections left out.
 */
function layout(focusLine: string | null, sections: Section[], maxChars: number, focus: Focus): string {
  const render = (shown: Section[], chosen: Map<Section, Item[]>) =>
    [focusLine, ...shown.map((s) => renderSection(s, chosen.get(s) ?? [], s.items.length - (chosen.get(s) ?? []).length))]
      .filter((text): text is string => text !== null)
      .join(SEPARATOR);

  const wholeSections = sections.filter((s) => s.whole);
  const wholeLength = wholeSections.reduce((sum, s) => sum + renderSection(s, s.items, 0).length, 0);
  const full = render(sections, new Map(sections.map((s) => [s, s.items] as const)));
  if (full.length - wholeLength <= maxChars) return full;

  // Headings, separators and a "(N more)" note per cut section are fixed costs; items share the rest.
  let cut = sections.filter((s) => !s.whole);
  const overheadOf = (cutSections: Section[]) => {
    const blocks = (focusLine ? 1 : 0) + wholeSections.length + cutSections.length;
    let overhead = (focusLine?.length ?? 0) + Math.max(0, blocks - 1) * SEPARATOR.length;
    for (const s of cutSections) overhead += `## ${s.title}`.length + 1 + moreNote(s.items.length).length;
    return overhead;
  };
  while (cut.length > 0 && overheadOf(cut) > maxChars) cut = cut.slice(0, -1);
  const room = Math.max(0, maxChars - overheadOf(cut));

  const sizes = cut.map((s) => s.items.reduce((sum, item) => sum + item.text.length + 1, 0));
  const total = sizes.reduce((a, b) => a + b, 0);
  const byPriority = (s: Section) => {
    const score = new Map(s.items.map((item) => [item, overlap(item.text, focus)] as const));
    return [...s.items].sort((a, b) => score.get(b)! - score.get(a)! || a.rank - b.rank || a.order - b.order);
  };

  const chosen = new Map<Section, Item[]>(wholeSections.map((s) => [s, s.items] as const));
  const pending = new Map<Section, Item[]>();
  let used = 0;
  cut.forEach((s, k) => {
    const share = total === 0 ? 0 : Math.floor((room * sizes[k]!) / total);
    const picked: Item[] = [];
    const rest: Item[] = [];
    let spent = 0;
    for (const item of byPriority(s)) {
      const cost = item.text.length + 1;
      if (spent + cost <= share) {
        picked.push(item);
        spent += cost;
      } else rest.push(item);
    }
    chosen.set(s, picked);
    pending.set(s, rest);
    used += spent;
  });
  // Second pass: room one section left unused goes to the others, in section order.
  for (const s of cut) {
    const picked = chosen.get(s)!;
    for (const item of pending.get(s)!) {
      const cost = item.text.length + 1;
      if (used + cost <= room) {
        picked.push(item);
        used += cost;
      }
    }
    picked.sort((a, b) => a.order - b.order);
  }
  return render(
    sections.filter((s) => s.whole || cut.includes(s)),
    chosen,
  );
}

// ---------------------------------------------------------------------------------------------

function key(sentence: string): string {
  return collapse(sentence).toLowerCase();
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function code(value: string): string {
  return value.includes("`") ? `\`\` ${value} \`\`` : `\`${value}\``;
}

/** At most `max` characters, cut at a word where one is near, never inside a surrogate pair. */
function shorten(text: string, max: number): string {
  const flat = collapse(text);
  if (flat.length <= max) return flat;
  let end = max - 1;
  const space = flat.lastIndexOf(" ", end);
  if (space > max / 2) end = space;
  const last = flat.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${flat.slice(0, end).trimEnd()}…`;
}
