/**
 * Qwen Code chat recordings, docs/formats.md §16, "Qwen Code". Pure: the caller supplies the
 * numbered lines of a JSONL session or the parsed document of a legacy JSON one.
 *
 * Current format (src: QwenLM/qwen-code packages/core/src/services/chatRecordingService.ts and
 * sessionService.ts): `~/.qwen/projects/<sanitized cwd>/chats/<sessionId>.jsonl`, one ChatRecord
 * a line {uuid, parentUuid, sessionId, timestamp, type user|assistant|tool_result|system, subtype,
 * cwd, version, gitBranch, message: Gemini Content {role, parts}, model, usageMetadata,
 * toolCallResult, systemPayload}. Records form a tree through parentUuid; Qwen Code resumes along
 * the chain from the file's last record (records sharing a uuid are one message, merged). So:
 * - the main thread is that chain; every other leaf ends an abandoned branch (a /rewind), which
 *   becomes a fork thread `<sessionId>:fork:<first uuid>` (pi's splitBranches, as for Pi);
 *   branches that make no turn (title anchors and other bookkeeping written beside the chain) are
 *   not conversations and are dropped without a word;
 * - user -> user turn (notification / cron / goal_runtime subtypes, which the CLI injects, ->
 *   system); assistant -> assistant turn (text, thoughts as thinking, functionCall as tool_call,
 *   usage from usageMetadata, model); tool_result -> tool turn whose tool_result parts name the
 *   call (functionResponse.id, else toolCallResult.callId); system chat_compression -> compaction
 *   turn (summary, tokens before/after); slash_command -> the command as a user turn and its
 *   output as a system turn; background_task_completed -> system turn. Other system records
 *   (telemetry, titles, snapshots, rewinds, ...) make no turn; custom_title gives the title.
 * - A sub-agent's transcript (`<projectDir>/subagents/<sessionId>/agent-<id>.jsonl`, every record
 *   isSidechain with the agentId and the parent's sessionId) is a child thread
 *   `<sessionId>:agent:<agentId>`; its launching tool call is in the `agent-<id>.meta.json` beside
 *   it (toolUseId), which the caller may pass as `source.toolCallId`.
 * - A /branch copy (every copied record has `forkedFrom {sessionId, messageUuid}`) is a fork of
 *   that session at the last copied turn.
 *
 * Legacy format (before Nov 2025, QwenLM/qwen-code#1100): `~/.qwen/tmp/<project hash>/chats/
 * session-*.json`, Gemini CLI's single JSON document; parsed by the Gemini CLI importer's legacy
 * reader (model messages typed `qwen` are read as its `gemini`), then relabelled.
 */
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isRealPrompt, titleFromContent } from "@/lib/domain/threads/title";
import { looksLikeGeminiLegacy, parseGeminiLegacy } from "../gemini-cli";
import { linkBranchThreads, splitBranches } from "../pi/tree";
import {
  ImportFormatError,
  isObject,
  type ImportedThread,
  type ImportedTurn,
  type NumberedLine,
  type ParsedSource,
  type SkippedEntry,
} from "../types";
import { recordTurn, type QwenRecord } from "./turns";
import { providerOfModel, qwenUsage } from "./usage";

export type QwenSource = {
  /** File name or path. */
  name: string;
  /** For a sub-agent transcript: the parent's tool call that launched it (`toolUseId` of agent-<id>.meta.json). */
  toolCallId?: string;
};

const RECORD_TYPES = new Set(["user", "assistant", "tool_result", "system"]);
/** System subtypes only Qwen Code writes (Claude Code's system records have others and no systemPayload). */
const QWEN_SUBTYPES = new Set([
  "chat_compression",
  "slash_command",
  "ui_telemetry",
  "at_command",
  "attribution_snapshot",
  "custom_title",
  "rewind",
  "agent_bootstrap",
  "agent_launch_prompt",
  "session_notes",
  "session_model",
  "file_history_snapshot",
]);

// --- detection ---------------------------------------------------------------------------------

/**
 * The first line is a Qwen Code ChatRecord. Claude Code's records share uuid / parentUuid /
 * sessionId / type, so only Qwen's own marks count: a message of Gemini `parts` (Claude's has
 * `content`), a `tool_result` type, `usageMetadata`, a `systemPayload` or a Qwen-only subtype.
 */
export function looksLikeQwenCodeSession(first: unknown, _fileName: string): boolean {
  if (!isObject(first) || typeof first.uuid !== "string" || typeof first.sessionId !== "string") return false;
  if (typeof first.type !== "string" || !RECORD_TYPES.has(first.type)) return false;
  const message = first.message;
  if (isObject(message)) return Array.isArray(message.parts) && !("content" in message);
  return (
    first.type === "tool_result" ||
    isObject(first.usageMetadata) ||
    "systemPayload" in first ||
    (typeof first.subtype === "string" && QWEN_SUBTYPES.has(first.subtype))
  );
}

/**
 * A legacy Qwen Code session: Gemini CLI's legacy document, told from Gemini's by the folder it
 * lives in (`.qwen/`) or by a message typed `qwen`; the two are otherwise the same shape.
 */
export function looksLikeQwenLegacy(doc: unknown, fileName: string): boolean {
  if (!looksLikeGeminiLegacy(doc, fileName) || !isObject(doc) || !Array.isArray(doc.messages)) return false;
  return /(^|[\\/])\.qwen[\\/]/.test(fileName) || doc.messages.some((m) => isObject(m) && m.type === "qwen");
}

// --- the JSONL ---------------------------------------------------------------------------------

type Node = { key: string; parentKey: string | null; line: number; entry: QwenRecord };

/** The records by uuid in first-seen order; a uuid written again is merged as Qwen Code's loader does. */
function readRecords(lines: Iterable<NumberedLine>, skipped: SkippedEntry[]): Node[] {
  const nodes = new Map<string, Node>();
  for (const { text, line, skipped: tooLong } of lines) {
    if (tooLong) {
      skipped.push(tooLong);
      continue;
    }
    if (!text.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(text) as unknown;
    } catch {
      skipped.push({ line, reason: "not valid JSON" });
      continue;
    }
    if (!isObject(record)) {
      skipped.push({ line, reason: "not a JSON object" });
      continue;
    }
    if (typeof record.uuid !== "string" || !record.uuid) {
      skipped.push({ line, reason: "uuid: missing or not a string" });
      continue;
    }
    if (typeof record.type !== "string" || !RECORD_TYPES.has(record.type)) {
      skipped.push({ line, reason: `type: ${JSON.stringify(record.type ?? null)} is not user, assistant, tool_result or system` });
      continue;
    }
    const known = nodes.get(record.uuid);
    if (known) {
      known.entry = mergeRecords(known.entry, record);
      continue;
    }
    const parentKey = typeof record.parentUuid === "string" && record.parentUuid ? record.parentUuid : null;
    nodes.set(record.uuid, { key: record.uuid, parentKey, line, entry: record });
  }
  return [...nodes.values()];
}

/**
 * sessionService.aggregateRecords: parts appended, the latest usage, the first model, the first
 * tool result info, the latest time. The parts go onto the first record's own list (parsed here),
 * so a uuid written many times costs its parts once.
 */
function mergeRecords(base: QwenRecord, next: QwenRecord): QwenRecord {
  if (isObject(next.message)) {
    if (!isObject(base.message)) base.message = next.message;
    else {
      if (!Array.isArray(base.message.parts)) base.message.parts = [];
      (base.message.parts as JsonValue[]).push(...asArray(next.message.parts));
    }
  }
  if (isObject(next.usageMetadata)) base.usageMetadata = next.usageMetadata;
  if (next.toolCallResult !== undefined && base.toolCallResult === undefined) base.toolCallResult = next.toolCallResult;
  if (typeof next.model === "string" && next.model && !base.model) base.model = next.model;
  if (typeof next.timestamp === "string" && typeof base.timestamp === "string" && next.timestamp > base.timestamp)
    base.timestamp = next.timestamp;
  return base;
}

const asArray = (value: JsonValue | undefined): JsonValue[] => (Array.isArray(value) ? value : []);
const str = (value: JsonValue | undefined): string | null => (typeof value === "string" && value ? value : null);

export function parseQwenCodeSession(lines: Iterable<NumberedLine>, source: QwenSource): ParsedSource {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const nodes = readRecords(lines, skipped);
  const first = nodes.find((node) => str(node.entry.sessionId));
  if (!first) throw new ImportFormatError(`${source.name}: not a Qwen Code session (expected records with uuid, sessionId and type)`);
  const sessionId = str(first.entry.sessionId)!;
  const agentId = first.entry.isSidechain === true ? str(first.entry.agentId) : null;
  const sessionKey = agentId ? `${sessionId}:agent:${agentId}` : sessionId;

  const turnOf = new Map<string, ImportedTurn>();
  for (const node of nodes) {
    const turn = recordTurn(node.entry);
    if (turn) turnOf.set(node.key, turn);
  }
  const { branches, unreached } = splitBranches(nodes, (node) => turnOf.has(node.key), warnings);
  for (const node of unreached) skipped.push({ line: node.line, reason: "in a loop of parent links, reached from no leaf" });

  let title: string | null = null;
  let parentSessionId: string | null = null;
  let lastVersion: string | null = null;
  for (const { entry } of nodes) {
    const payload = isObject(entry.systemPayload) ? entry.systemPayload : null;
    if (entry.subtype === "custom_title" && payload && str(payload.customTitle)) title = str(payload.customTitle);
    if (entry.subtype === "parent_session" && payload && str(payload.parentSessionId)) parentSessionId = str(payload.parentSessionId);
    if (str(entry.version)) lastVersion = str(entry.version);
  }

  const threads: ImportedThread[] = [];
  const threadOfBranch: number[] = [];
  let forkedFrom: string | null = null;
  let copiedThrough: string | null = null;
  branches.forEach((branch, index) => {
    const turns: ImportedTurn[] = [];
    for (const node of branch.nodes) {
      const turn = turnOf.get(node.key);
      if (!turn) continue;
      const origin = isObject(node.entry.forkedFrom) ? str(node.entry.forkedFrom.sessionId) : null;
      if (index === 0 && origin && origin !== sessionId) {
        forkedFrom = origin;
        copiedThrough = turn.key;
        turn.metadata = { ...turn.metadata, copiedFromParent: true };
      }
      turns.push(turn);
    }
    if (turns.length === 0 && index > 0) {
      threadOfBranch.push(-1);
      return;
    }
    const records = branch.nodes.map((node) => node.entry);
    const head = records[0] ?? first.entry;
    threadOfBranch.push(threads.length);
    threads.push({
      key: index === 0 ? sessionKey : `${sessionKey}:fork:${branch.nodes[0]!.key}`,
      title: null,
      toolName: "qwen-code",
      project: str(head.cwd) ?? str(first.entry.cwd),
      createdAt: turns[0]?.timestamp ?? null,
      lastUpdatedAt: latest(records.map((r) => r.timestamp)),
      metadata: defined({
        sessionId,
        cwd: str(head.cwd) ?? str(first.entry.cwd),
        gitBranch: str(head.gitBranch),
        version: lastVersion,
        agentId,
        agentName: agentId ? str(first.entry.agentName) : null,
        parentSessionId,
        forkedAt: index > 0 ? branch.atKey : null,
        leafUuid: index > 0 ? (branch.nodes.at(-1)?.key ?? null) : null,
      }),
      turns,
    });
  });

  const main = threads[0]!;
  if (main.turns.length === 0 && threads.length === 1) {
    warnings.push(`${source.name}: session ${sessionId} has no messages; nothing imported`);
    return { format: "qwen-code", threads: [], skipped: sortByLine(skipped), warnings };
  }
  const firstPrompt = main.turns.find((turn) => turn.role === "user" && isRealPrompt(turn.content));
  main.title = title ?? (firstPrompt ? titleFromContent(firstPrompt.content) : null);
  if (agentId) {
    main.parentKey = sessionId;
    main.relation = { kind: "subagent", toolCallId: source.toolCallId ?? null, agentId };
  } else if (forkedFrom) {
    main.parentKey = forkedFrom;
    main.relation = { kind: "fork", atTurnKey: copiedThrough };
  } else if (parentSessionId && parentSessionId !== sessionId) {
    // A session another one spawned (create_sub_session): its caller is the parent.
    main.parentKey = parentSessionId;
    main.relation = { kind: "subagent", toolCallId: null };
  }
  linkBranchThreads(branches, threadOfBranch, threads, main, "Qwen Code session");
  return { format: "qwen-code", threads, skipped: sortByLine(skipped), warnings };
}

// --- the legacy JSON ---------------------------------------------------------------------------

/** A legacy session through the Gemini CLI reader, relabelled as Qwen Code's. */
export function parseQwenLegacy(doc: unknown, source: QwenSource): ParsedSource {
  if (!isObject(doc) || !Array.isArray(doc.messages))
    throw new ImportFormatError(`${source.name}: not a legacy Qwen Code session (expected an object with a messages list)`);
  const messages = doc.messages.map((m) => (isObject(m) && m.type === "qwen" ? { ...m, type: "gemini" } : m));
  const parsed = parseGeminiLegacy({ ...doc, messages }, { name: source.name });
  for (const thread of parsed.threads) {
    thread.toolName = "qwen-code";
    for (const turn of thread.turns) relabel(turn);
  }
  return { ...parsed, format: "qwen-code" };
}

/**
 * Gemini's reader prices `tokens` as Gemini reports them (output without thoughts) and says
 * "google"; Qwen Code filled the same summary from any provider, so the usage is read again with
 * Qwen's rule and the summary kept under another name.
 */
function relabel(turn: ImportedTurn): void {
  if (turn.role !== "assistant") return;
  turn.modelProvider = providerOfModel(turn.modelName ?? null);
  const { tokens, ...rest } = turn.metadata ?? {};
  if (tokens === undefined) return;
  turn.usage = qwenUsage(tokens, turn.modelName ?? null);
  turn.metadata = { ...rest, tokenSummary: tokens };
}

// --- helpers -----------------------------------------------------------------------------------

function latest(values: (JsonValue | undefined)[]): string | null {
  let best: string | null = null;
  let bestTime = -Infinity;
  for (const value of values) {
    if (typeof value !== "string") continue;
    const time = Date.parse(value);
    if (Number.isFinite(time) && time > bestTime) {
      bestTime = time;
      best = new Date(time).toISOString();
    }
  }
  return best;
}

function defined(values: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

const sortByLine = (entries: SkippedEntry[]) => entries.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
