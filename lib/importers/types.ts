/**
 * The common shape every transcript importer produces: pure data, no database, no file system.
 * A parser turns one source file (or one document) into threads; the writer (lib/db/imports/imports.ts)
 * gives them stable ids and stores them idempotently, one transaction per file.
 */
import type { JsonObject, JsonValue, TurnPart, TurnRole } from "@/lib/domain/types";
import { isAgentDatabase } from "./databases";
import { editorStorageTranscript } from "./editor-storage";
import { isClineSideFile } from "./cline/paths";
import { isOpenCodeSideFile } from "./opencode/paths";

export const IMPORT_FORMATS = [
  "claude-code",
  "codex",
  "gemini-cli",
  "opencode",
  "pi",
  "copilot",
  "cursor",
  "cline",
  "roo-code",
  "kilo-code",
  "amp",
  "goose",
  "qwen-code",
  "crush",
  "continue",
  "factory-droid",
  "aider",
  "chatgpt",
  "pal",
  "pydantic-ai",
  "plain",
  "threadline",
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Human names, for messages and the UI. */
export const FORMAT_LABELS: Record<ImportFormat, string> = {
  "claude-code": "Claude Code session (JSONL)",
  codex: "Codex CLI rollout (JSONL)",
  "gemini-cli": "Gemini CLI chat (JSON or JSONL)",
  opencode: "OpenCode session (export JSON, storage folder or opencode.db)",
  pi: "Pi session (JSONL)",
  copilot: "GitHub Copilot CLI session (events.jsonl or legacy JSON)",
  cursor: "Cursor chats (state.vscdb)",
  cline: "Cline task (api_conversation_history.json)",
  "roo-code": "Roo Code task (api_conversation_history.json)",
  "kilo-code": "Kilo Code session (the Kilo CLI's kilo.db or storage folder, or the extension's api_conversation_history.json)",
  amp: "Amp thread (T-<id>.json)",
  goose: "Goose session (sessions.db or legacy JSONL)",
  "qwen-code": "Qwen Code chat (JSONL or legacy JSON)",
  crush: "Crush session (.crush/crush.db)",
  continue: "Continue session (~/.continue/sessions/<id>.json)",
  "factory-droid": "Factory Droid session (JSONL)",
  aider: "Aider chat history (.aider.chat.history.md)",
  chatgpt: "ChatGPT export (conversations.json)",
  pal: "PAL ThreadContext (JSON)",
  "pydantic-ai": "pydantic-ai messages (JSON)",
  plain: "role/content list (JSON)",
  threadline: "Threadline export (threadline/v1)",
};

/** Side files agents keep next to their transcripts (indexes such as Continue's sessions.json, settings, logs): not conversations. */
const NOT_TRANSCRIPTS =
  /(^|[\\/])(history\.jsonl|session_index\.jsonl|sessions\.json|logs\.json|projects\.json|settings(\.local)?\.json|package(-lock)?\.json|tsconfig\.json|[^\\/]*\.meta\.json|[^\\/]*\.settings\.json)$/i;

/** Aider's chat history, in each repository it ran in (lib/importers/aider). */
const AIDER_HISTORY = /(^|[\\/])\.aider\.chat\.history\.md$/;

/**
 * Whether a file found while walking a folder may be a transcript: .json or .jsonl, no side file
 * (OpenCode's messages and parts are pieces of its sessions; a Cline, Roo Code or Kilo Code task's
 * ui_messages.json, task_metadata.json and the like are read with its api_conversation_history.json);
 * an agent's database (./databases.ts); or an Aider chat history. Inside an editor's storage
 * folders only the agents' own files count (./editor-storage.ts).
 */
export function isTranscriptPath(filePath: string): boolean {
  const inEditorStorage = editorStorageTranscript(filePath);
  if (inEditorStorage !== null) return inEditorStorage;
  if (AIDER_HISTORY.test(filePath)) return true;
  return (
    ((/\.jsonl?$/i.test(filePath) && !NOT_TRANSCRIPTS.test(filePath)) || isAgentDatabase(filePath)) &&
    !isOpenCodeSideFile(filePath) &&
    !isClineSideFile(filePath)
  );
}

/**
 * Token usage as the source reported it for one model response, counted once per response (not
 * per content block or line). Any field may be missing; numbers are whole tokens.
 * - inputTokens: input not read from cache (Anthropic input_tokens; OpenAI input minus cached)
 * - cacheReadTokens / cacheWriteTokens: cache hits / cache creation
 * - outputTokens: output including reasoning where the source folds it in (see reasoningTokens)
 * - reasoningTokens: reasoning/thinking tokens where reported separately
 * - cacheWrite5mTokens / cacheWrite1hTokens: parts of cacheWriteTokens, by cache lifetime
 * - reportedCostUsd: the source's own price of the response
 */
export type ImportedUsage = {
  inputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** The cache writes kept 5 minutes and 1 hour, where the source splits them (Claude Code's usage.cache_creation); 1-hour writes cost more. */
  cacheWrite5mTokens?: number;
  cacheWrite1hTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  /** The cost in USD the source computed for the response (OpenCode, Pi, Aider), kept as reported beside Threadline's price. */
  reportedCostUsd?: number;
};

/** A compaction as the source recorded it (Claude Code compact_boundary, Codex compacted, ...). */
export type ImportedCompaction = {
  trigger?: string | null; // "manual" | "auto" | ...
  tokensBefore?: number | null;
  tokensAfter?: number | null;
};

/** A turn of a streamed source and the thread (an index into the source's threads) it belongs to. */
export type ThreadTurn = { threadIndex: number; turn: ImportedTurn };

export type ImportedTurn = {
  /**
   * Stable key of the turn within its thread, from the source (message uuid, message id, line
   * number or list index as a last resort). Re-importing the same source must give the same keys:
   * turn ids are derived from them and from everything stored of the turn, which is what makes
   * re-import idempotent and an edited turn a difference (see importedTurnId).
   */
  key: string;
  role: TurnRole;
  /** Readable text of the turn (text parts joined; tool calls and results summarised). Searchable. */
  content: string;
  /** Structured parts: text, thinking, tool_call (id, name, arguments), tool_result (toolCallId), image, compaction. */
  parts?: TurnPart[];
  /** ISO-8601 UTC. */
  timestamp?: string | null;
  toolName?: string | null;
  modelProvider?: string | null;
  modelName?: string | null;
  usage?: ImportedUsage | null;
  /** Set on the turn that marks a compaction boundary (its content is the summary, if any). */
  compaction?: ImportedCompaction | null;
  files?: string[];
  images?: string[];
  /** Anything else worth keeping from the source (kept in the turn's modelMetadata). */
  metadata?: JsonObject;
};

/**
 * Where an imported thread's identity comes from:
 * - source: the source's own ids (a session id, a conversation id, a PAL thread id);
 * - name: the file name, for formats without ids (role/content lists, pydantic-ai without a
 *   conversation id): re-importing a file of that name updates the same thread;
 * - new: none, a new thread every time (such a format imported without a name).
 */
export type ThreadIdentity = "source" | "name" | "new";

/**
 * What importing a file did to one thread. After an import, a thread holds exactly the file's turns:
 * - created: a new thread;
 * - appended: the stored turns were the start of the file's, `turnsAdded` follow them;
 * - rewritten: from turn `fromTurn` (1-based) on the stored turns differed: `turnsRemoved` were
 *   deleted, `turnsAdded` written in their place;
 * - truncated: the file has fewer turns: from `fromTurn` on, `turnsRemoved` were deleted;
 * - unchanged.
 * `identity` says where the thread's identity came from (see ThreadIdentity).
 */
export type ThreadImportResult = {
  id: string;
  title: string | null;
  change: "created" | "appended" | "rewritten" | "truncated" | "unchanged";
  turnsAdded: number;
  turnsRemoved: number;
  fromTurn?: number;
  identity: ThreadIdentity;
};

/** How a thread relates to its parent thread. */
export type ThreadRelation =
  /** Another branch of the same conversation, diverging after the parent's turn `atTurnKey`. */
  | { kind: "fork"; atTurnKey: string | null }
  /** A sub-agent run, started by the parent's tool call `toolCallId`. */
  | { kind: "subagent"; toolCallId: string | null; agentId?: string | null }
  /** A plain continuation (PAL parent_thread_id). */
  | { kind: "continuation" };

export type ImportedThread = {
  /**
   * Stable key of the thread within the format (Claude Code sessionId, Codex session id, ChatGPT
   * conversation id, ...; forks and sub-agents add a suffix). Thread ids are derived from
   * format + key, so the same conversation imported from two files is one thread.
   */
  key: string;
  /** "name" when the key is the file name (the format has no id for the thread); absent: from the source. */
  identity?: ThreadIdentity;
  /** Key of the parent thread (same format), for forks, sub-agents and continuations. */
  parentKey?: string | null;
  relation?: ThreadRelation | null;
  /** A UUID the source itself uses for this thread, kept as is (PAL thread ids); else derived. */
  sourceId?: string | null;
  title?: string | null;
  /** The tool that started it: "claude-code", "codex", "gemini-cli", "chatgpt", or PAL's tool_name. */
  toolName: string;
  /** Working directory of the session, for the project filter. */
  project?: string | null;
  createdAt?: string | null;
  lastUpdatedAt?: string | null;
  initialContext?: JsonObject;
  /** Source details: cwd, gitBranch, version, originator, cli version, ... */
  metadata?: JsonObject;
  turns: ImportedTurn[];
};

/**
 * An entry left out, and where: 1-based line for line formats, a JSON path otherwise. `bytes`: the
 * entry was too large to read (lib/importers/long-lines.ts), and this is its size.
 */
export type SkippedEntry = { line?: number; path?: string; reason: string; bytes?: number };

/**
 * The model calls an agent made to compact a conversation (Claude Code's `agent-acompact-*`
 * files): no conversation of their own, but what they cost belongs to the session they compacted.
 */
export type ImportedCompactionRun = {
  /** Key of the thread (same format) whose conversation was compacted. */
  threadKey: string;
  /** The agent's own id for the run (Claude Code: `acompact-946d2b`). */
  runId: string;
  /** Key of the turn the summarisation request followed: the compaction boundary names it (logicalParentUuid). */
  afterTurnKey: string | null;
  modelProvider: string | null;
  modelName: string | null;
  /** Each response once, its usage as reported. */
  responses: { key: string; timestamp: string | null; usage: ImportedUsage }[];
};

export type ParsedSource = {
  format: ImportFormat;
  threads: ImportedThread[];
  skipped: SkippedEntry[];
  warnings: string[];
  compactionRuns?: ImportedCompactionRun[];
};

/** A parse that cannot go on at all (not this format, not JSON at all, ...). */
export class ImportFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = "ImportFormatError";
  }
}

/**
 * Lines of a text file, numbered from 1, without their line ending. `skipped`: the line was too
 * long to read (its text is empty, so a parser that does not look takes it for a blank line).
 */
export type NumberedLine = { text: string; line: number; skipped?: SkippedEntry };

/** `dir/chat.history.json` -> `chat.history`: the file's name without directories and its last extension; the key of a thread whose format has no id for it. */
export function fileStem(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/\.[^.]+$/, "") || base || fallback;
}

/** Narrowing helpers for untrusted JSON. */
export function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
