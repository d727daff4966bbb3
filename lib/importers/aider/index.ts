/**
 * Aider chat histories: `.aider.chat.history.md`, one per repository (Aider writes it in the git
 * root, or wherever `--chat-history-file` says), every run appended, never rewritten. Pure: the
 * caller supplies the lines. The format as this importer relies on it (aider/io.py):
 *
 * - `# aider chat started at YYYY-MM-DD HH:MM:SS` opens a run, in the local time of the machine,
 *   without a zone. Each run becomes a thread. Aider starts every run with an empty chat (unless
 *   `--restore-chat-history`, which leaves no mark in the file), so runs are separate
 *   conversations, not continuations of each other: they share the project and the file, named
 *   in each thread's metadata. The time is stored as if it were UTC (the page shows UTC, so the
 *   digits Aider wrote are the ones shown) and kept as written in `startedAtLocal`: reading it in
 *   the server's zone would make the same file import differently on two machines. Turns have no
 *   time of their own: each carries its run's start.
 * - `#### ` lines are what the person typed, one line each; consecutive ones are one input, a user
 *   turn. A `#### ` line holding a confirm question and its answer (`Add file to the chat? (Y)es/…
 *   [Yes]: all`) is Aider repeating an answer given once for a group, not a prompt: it stays with
 *   the status messages, marked `echo`.
 * - `> ` lines (ending in two spaces) are Aider's status messages: start-up banner, questions and
 *   answers, `Applied edit to …`, `Commit <sha> <message>`, shell commands, warnings, Ctrl-C
 *   notices. The ones before a run's first prompt are its start-up turn; later ones between two
 *   prompts or replies are one system turn, their lines kept as written (a Markdown blockquote,
 *   as Aider meant them), what they say also in the turn's metadata (commits, applied edits,
 *   answers, interrupts). The banner's model (`Main model: <name> with <format> edit format`, or
 *   `Model:` when main and weak are one) names the model of the replies after it, a `/model`
 *   switch included.
 * - Everything else is reply text, one assistant turn per stretch between status or prompt lines
 *   (Aider writes each reply whole after it ends), Markdown and SEARCH/REPLACE blocks kept as
 *   they are. A reasoning model's thoughts come first, in `<thinking-content-…>` tags (or the
 *   model's own `<think>`): they become a thinking part.
 * - `> Tokens: 2.4k sent, 104 received. Cost: $0.0042 message, $0.03 session.` follows each reply
 *   (`, 1.2k cache write, 8.5k cache hit` when the provider reports them; no cost when the model has
 *   no price). It is the usage of the reply since the last prompt that has none yet, or of a reply
 *   Aider did not write (an empty assistant turn, marked `emptyReply`). "sent" counts everything
 *   sent, so input = sent minus cache hits and writes; reportedCostUsd = the message's cost. The
 *   figures are rounded by Aider (3.2k): the turn says `usageRounded` and keeps the line.
 *
 * Keys: Aider has no ids. A thread is keyed by the file's name (its path, when imported from one)
 * and its run's start time, `#2`… for runs started in the same second, so an appended run adds a
 * thread and leaves the others' keys alone (identity "name"). A turn is keyed by its first line
 * number, which appending never changes. The project is the folder holding the file.
 */
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import {
  ImportFormatError,
  type ImportedThread,
  type ImportedTurn,
  type NumberedLine,
  type ParsedSource,
  type SkippedEntry,
} from "../types";
import { readHistoryLines, RUN_HEADER, type HistoryEntry } from "./lines";
import { isInterrupt, modelOf, readCommit, readConfirm, readModelBanner, readTokensReport } from "./status";
import { isRealPrompt } from "@/lib/domain/threads/title";
import { collapse } from "../text";

const AIDER_HISTORY_FILE = ".aider.chat.history.md";

/** Whether a text file (not JSON) is an Aider chat history: by its name, or a run header as its first non-blank line. */
export function looksLikeAiderHistory(text: string, fileName: string): boolean {
  if (baseName(fileName) === AIDER_HISTORY_FILE) return true;
  const start = text.search(/\S/);
  return start >= 0 && text.startsWith(RUN_HEADER, start);
}

export function parseAiderHistory(lines: NumberedLine[], source: { name: string }): ParsedSource {
  const entries = readHistoryLines(lines);
  const firstRun = entries.findIndex((e) => e.kind === "run");
  if (firstRun < 0)
    throw new ImportFormatError(`${source.name}: not an Aider chat history: no "${RUN_HEADER.trim()}" line`, lines[0]?.line);
  const skipped: SkippedEntry[] = [];
  const before = entries.slice(0, firstRun).filter((e) => e.kind !== "blank");
  if (before.length > 0)
    skipped.push({ line: before[0]!.line, reason: `${before.length} line(s) before the first "${RUN_HEADER.trim()}" belong to no run` });

  const runs: HistoryEntry[][] = [];
  for (const entry of entries.slice(firstRun)) {
    if (entry.kind === "run") runs.push([entry]);
    else runs[runs.length - 1]!.push(entry);
  }
  const seen = new Map<string, number>();
  const threads = runs.map((run, index) => {
    const header = run[0] as Extract<HistoryEntry, { kind: "run" }>;
    const count = (seen.get(header.startedAt) ?? 0) + 1;
    seen.set(header.startedAt, count);
    return runThread(run, {
      name: source.name,
      ordinal: index + 1,
      key: `${source.name}#${header.startedAt}${count > 1 ? `#${count}` : ""}`,
    });
  });
  return { format: "aider", threads, skipped, warnings: [] };
}

function baseName(name: string): string {
  return name.split(/[\\/]/).pop() ?? name;
}

/** The folder holding the file, when its name is a path. */
function projectOf(name: string): string | null {
  const cut = Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\"));
  if (cut < 0) return null;
  return cut === 0 ? name.slice(0, 1) : name.slice(0, cut);
}

/** `2025-07-15 11:38:37` -> `2025-07-15T11:38:37.000Z` (the wall-clock digits, read as UTC), or null. */
function naiveUtc(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(local)) return null;
  const date = new Date(`${local.replace(" ", "T")}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

type Block = { kind: "prompt" | "reply" | "status"; entries: HistoryEntry[] };

/** Consecutive prompt lines (one input), reply text with its inner blank lines, status messages across blank lines. */
function blocksOf(run: HistoryEntry[]): Block[] {
  const blocks: Block[] = [];
  let current = null as Block | null;
  for (const entry of run) {
    if (entry.kind === "run") continue;
    if (entry.kind === "blank") {
      if (current?.kind === "prompt") current = null;
      else if (current?.kind === "reply") current.entries.push(entry);
      continue;
    }
    const kind: Block["kind"] = entry.kind === "prompt" ? "prompt" : entry.kind === "reply" ? "reply" : "status";
    if (current?.kind !== kind) {
      current = { kind, entries: [] };
      blocks.push(current);
    }
    current.entries.push(entry);
  }
  return blocks;
}

type RunContext = { name: string; ordinal: number; key: string };
type Model = { modelProvider: string | null; modelName: string } | null;

function runThread(run: HistoryEntry[], context: RunContext): ImportedThread {
  const header = run[0] as Extract<HistoryEntry, { kind: "run" }>;
  const startedAt = naiveUtc(header.startedAt);
  const turns: ImportedTurn[] = [];
  const banner: JsonObject = {};
  let model: Model = null;
  /** The latest reply since the last prompt that has no usage yet: the next Tokens line's. */
  let awaitingUsage: ImportedTurn | null = null;
  let interrupted = false;
  const base = () => ({ timestamp: startedAt, ...(model ?? {}) });

  for (const [index, block] of blocksOf(run).entries()) {
    if (block.kind === "prompt") {
      const text = block.entries.map((e) => (e.kind === "prompt" ? e.text : "")).join("\n");
      turns.push(userTurn(block.entries[0]!.line, text, startedAt));
      awaitingUsage = null;
    } else if (block.kind === "reply") {
      const turn = replyTurn(block.entries, base());
      turns.push(turn);
      awaitingUsage = turn;
    } else {
      let pending: StatusEntry[] = [];
      const flush = () => {
        if (pending.length > 0) turns.push(statusTurn(pending, index === 0 ? "startup" : "status", startedAt));
        pending = [];
      };
      for (const entry of block.entries as StatusEntry[]) {
        const report = entry.kind === "status" ? readTokensReport(entry.text) : null;
        if (report && entry.kind === "status") {
          const usageMeta: JsonObject = {
            usageRounded: true,
            usageLine: entry.raw.join("\n"),
            sentTokens: report.sentTokens,
            ...(report.sessionCostUsd !== null ? { sessionCostUsd: report.sessionCostUsd } : {}),
          };
          if (awaitingUsage) {
            awaitingUsage.usage = report.usage;
            awaitingUsage.metadata = { ...awaitingUsage.metadata, ...usageMeta };
          } else {
            flush();
            turns.push({
              key: String(entry.line),
              role: "assistant",
              content: "",
              ...base(),
              usage: report.usage,
              metadata: { emptyReply: true, ...usageMeta },
            });
          }
          awaitingUsage = null;
          continue;
        }
        if (entry.kind === "status") {
          const seen = readModelBanner(entry.text);
          if (seen?.role === "main") model = modelOf(seen.name);
          if (index === 0) noteBanner(banner, entry.text);
          if (entry.text === "^C KeyboardInterrupt") interrupted = true;
        }
        pending.push(entry);
      }
      flush();
    }
  }

  const firstPrompt = turns.find((t) => t.role === "user" && isRealPrompt(t.content))?.content ?? "";
  const title = collapse(firstPrompt) || `Aider run of ${header.startedAt}`;
  const last = run[run.length - 1]!;
  return {
    key: context.key,
    identity: "name",
    title,
    toolName: "aider",
    project: projectOf(context.name),
    createdAt: startedAt,
    lastUpdatedAt: startedAt,
    metadata: {
      historyFile: context.name,
      run: context.ordinal,
      startedAtLocal: header.startedAt,
      timeZone: "local time of the machine that ran Aider (stored as UTC digits)",
      lines: { from: header.line, to: last.line },
      ...banner,
      ...(interrupted ? { endedBy: "KeyboardInterrupt" } : {}),
    },
    turns,
  };
}

type StatusEntry = Extract<HistoryEntry, { kind: "status" | "echo" }>;

function userTurn(line: number, text: string, timestamp: string | null): ImportedTurn {
  const metadata: JsonObject = {};
  // `/add file`, `/model x`: Aider's own commands; `!cmd`: a shell command run from the prompt.
  if (text.startsWith("/")) metadata.aiderCommand = text.split(/\s/, 1)[0]!;
  else if (text.startsWith("!")) metadata.shellCommand = true;
  return { key: String(line), role: "user", content: text, timestamp, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

/** A reply: its text between blank lines, the reasoning it starts with as a thinking part. */
function replyTurn(entries: HistoryEntry[], base: { timestamp: string | null } & Partial<NonNullable<Model>>): ImportedTurn {
  let end = entries.length;
  while (end > 0 && entries[end - 1]!.kind === "blank") end -= 1;
  const text = entries
    .slice(0, end)
    .map((e) => (e.kind === "reply" ? e.text : ""))
    .join("\n");
  const { thinking, answer, tag } = splitReasoning(text);
  const turn: ImportedTurn = { key: String(entries[0]!.line), role: "assistant", content: answer, ...base };
  if (thinking !== null) {
    const parts: TurnPart[] = [{ type: "thinking", text: thinking }];
    if (answer) parts.push({ type: "text", text: answer });
    turn.parts = parts;
    turn.metadata = { reasoningTag: tag };
  }
  return turn;
}

/**
 * Reasoning Aider wrote before the answer: `<thinking-content-…>…</thinking-content-…>` (its own
 * tag, aider/reasoning_tags.py) or `<think>…</think>` (models that emit their own). An unclosed tag
 * (an interrupted reply) holds the rest. Tags elsewhere in the text are left as text.
 * @internal exported for its tests
 */
export function splitReasoning(text: string): { thinking: string | null; answer: string; tag: string | null } {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== "<") return { thinking: null, answer: text.trim(), tag: null };
  const close = text.indexOf(">", start);
  const tag = close > start ? text.slice(start + 1, close) : "";
  if (!(tag === "think" || (tag.startsWith("thinking-content-") && /^[\w-]+$/.test(tag))))
    return { thinking: null, answer: text.trim(), tag: null };
  const closing = `</${tag}>`;
  const end = text.indexOf(closing, close);
  if (end < 0) return { thinking: text.slice(close + 1).trim(), answer: "", tag };
  return { thinking: text.slice(close + 1, end).trim(), answer: text.slice(end + closing.length).trim(), tag };
}

/** A system turn of status messages, their lines as written; what they say in its metadata. */
function statusTurn(entries: StatusEntry[], kind: "startup" | "status", timestamp: string | null): ImportedTurn {
  const commits: JsonValue[] = [];
  const appliedEdits: string[] = [];
  const answers: JsonValue[] = [];
  const shellCommands: string[] = [];
  const echoes: number[] = [];
  let interrupts = 0;
  for (const entry of entries) {
    const confirm = readConfirm(entry.text);
    if (entry.kind === "echo") {
      echoes.push(entry.line);
      continue;
    }
    const commit = readCommit(entry.text);
    if (commit) commits.push(commit);
    else if (entry.text.startsWith("Applied edit to ")) appliedEdits.push(entry.text.slice("Applied edit to ".length));
    else if (entry.text.startsWith("Running ")) shellCommands.push(entry.text.slice("Running ".length));
    else if (confirm) answers.push({ line: entry.line, ...confirm });
    else if (isInterrupt(entry.text)) interrupts += 1;
  }
  const metadata: JsonObject = { aiderStatus: kind };
  if (commits.length > 0) metadata.commits = commits;
  if (appliedEdits.length > 0) metadata.appliedEdits = appliedEdits;
  if (answers.length > 0) metadata.answers = answers;
  if (shellCommands.length > 0) metadata.shellCommands = shellCommands;
  // Lines of `#### ` answers Aider repeated for a group (not typed prompts).
  if (echoes.length > 0) metadata.echoedAnswerLines = echoes;
  if (interrupts > 0) metadata.interrupted = true;
  const content = entries.flatMap((e) => (e.kind === "echo" ? [e.raw] : e.raw)).join("\n");
  return {
    key: String(entries[0]!.line),
    role: "system",
    content,
    timestamp,
    ...(appliedEdits.length > 0 ? { files: appliedEdits } : {}),
    metadata,
  };
}

/** The start-up banner's facts, for the thread's metadata (the lines themselves are the start-up turn). */
function noteBanner(banner: JsonObject, text: string): void {
  const model = readModelBanner(text);
  if (model?.role === "main") {
    banner.model = model.name;
    if (model.editFormat) banner.editFormat = model.editFormat;
    if (model.options.length > 0) banner.modelOptions = model.options;
  } else if (model?.role === "weak") banner.weakModel = model.name;
  else if (model?.role === "editor") banner.editorModel = model.name;
  else if (text.startsWith("Aider v")) banner.aiderVersion = text.slice("Aider v".length);
  else if (text.startsWith("Git repo: ")) banner.gitRepo = text.slice("Git repo: ".length);
  else if (text.startsWith("Repo-map: ")) banner.repoMap = text.slice("Repo-map: ".length);
}
