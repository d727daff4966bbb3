/**
 * Cline, Roo Code and Kilo Code tasks (docs/formats.md §13, "Cline, Roo Code and Kilo Code"). Pure:
 * the caller reads the files; lib/imports/cline-tasks.ts assembles a task folder into a
 * ClineTaskDocument. Roo Code is a fork of Cline and Kilo Code's VS Code extension (before its
 * rewrite) a fork of Roo Code: one layout, one reader, three formats ("cline", "roo-code",
 * "kilo-code") so that each keeps its own threads.
 *
 * A task folder (./paths.ts) holds:
 * - api_conversation_history.json: the conversation as sent to the model, Anthropic Messages
 *   shaped: `{role, content}` where content is a string or blocks (text, image, tool_use,
 *   tool_result, thinking, redacted_thinking; Roo Code's `reasoning`); Cline adds `ts`,
 *   `modelInfo {providerId, modelId, mode}`, `metrics` and `id` per message since Nov 2025, Roo
 *   Code `ts` and its condense fields (isSummary, condenseId, condenseParent, isTruncationMarker,
 *   truncationId, truncationParent).
 * - ui_messages.json: what the extension showed, `{ts, type: "say"|"ask", say|ask, text, …}`;
 *   a `say: "api_req_started"` record's text is JSON with the request's tokensIn, tokensOut,
 *   cacheWrites, cacheReads and cost, filled in when the request ends.
 * - task_metadata.json: files_in_context, model_usage `[{ts, model_id, model_provider_id, mode}]`
 *   (Cline: a new entry when the model changes), environment_history.
 * - history_item.json (newer Roo Code): the task's history entry, with parentTaskId for a sub-task.
 *
 * How a task becomes a thread:
 * - One thread per task, keyed by the task id (the folder's name; an API history uploaded alone
 *   has none: its key is made from its first message, so the same task uploaded again is the same
 *   thread). Title: the first prompt (the text inside `<task>` or `<user_message>`), else ui's
 *   first `say: "task"`. Project: history_item's workspace, else the working directory the first
 *   environment details name. Times: `ts` (Unix ms) of messages and ui records.
 * - Each message is a turn, keyed by its index in the history. An assistant message is one model
 *   response: text, thinking (an encrypted reasoning item only by its length), tool_use as tool
 *   calls, images. A user message with tool_result blocks is one tool turn (`<index>:results`)
 *   holding the results and the text sent with them; any other user message is a user turn, whose
 *   `<environment_details>` block (the editor's state the extension appends) is kept as a
 *   synthetic part, out of the text. A user message that answers a tool called in XML text (the
 *   extensions' older tool calls, `[read_file for 'a.ts'] Result:`) is a tool turn too, its
 *   result left as text (XML tool calls are not parsed).
 * - Usage: the ui's api_req_started records, matched to the responses by time, by Cline's
 *   conversationHistoryIndex, else by order (see matchRequests). Each record counts once: on the
 *   response it answers, or, when it answers none but used tokens (cancelled, failed mid-stream,
 *   its message deleted), on an assistant turn of its own (`ui:<ts>`). Cline's tokensIn excludes
 *   the cache; Roo Code's and Kilo Code's include it in newer builds (see
 *   rooTokensInIncludesCache). Without ui_messages.json (an uploaded history alone) no usage is
 *   reported; Cline's per-message `metrics` are kept in the metadata but not counted (their
 *   `cached` is reads and writes together).
 * - Model of a response: its message's modelInfo, its request's, task_metadata's model_usage at
 *   its time, else the `<model>` of the environment details before it (Roo Code, Kilo Code).
 * - Compaction: Roo Code's summary message (isSummary) and sliding-window marker
 *   (isTruncationMarker) are compaction turns, with the tokens before and after and the condense's
 *   cost from the ui's condense_context / sliding_window_truncation record (matched by their ids,
 *   else in order); the messages they replaced stay turns, their condenseParent kept in metadata.
 *   Cline's summarize_task (auto) and condense (manual, /smol) tool calls put a compaction turn
 *   with the call's summary after the call's result.
 * - Sub-tasks: Roo Code's new_task result names the child task ("Delegated to child task <id>",
 *   "Subtask <id> completed."), kept on the call as childTaskId; a child task whose history_item
 *   names its parentTaskId is a sub-agent thread of the parent's task (its call not known from the
 *   child's folder). Cline's new_task starts an unrelated task (nothing links them). Cline's
 *   use_subagents keeps no transcript of its sub-agents, only their summed usage (ui
 *   `subagent_usage`): a child thread per call holds the prompts and that usage, so the session's
 *   total counts it once. Cline's deleted_api_reqs (usage of deleted messages) is a system turn with
 *   that usage.
 */
import { createHash } from "node:crypto";
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { collapse } from "../text";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ParsedSource, type SkippedEntry } from "../types";
import { API_HISTORY_FILE, clineTaskPath, type ClineVariant } from "./paths";
import {
  deletedRequestsTurn,
  matchRequests,
  modelOf,
  modelUsesOf,
  orphanRequestTurn,
  placedByTime,
  requestMetadata,
  uiRecords,
  usageIncludesCache,
  usageOfRecord,
  type UiRecords,
} from "./requests";
import { historyTurns, isEnvironmentDetails, isoFromMs, num, str, unwrapped, type HistoryTurns } from "./turns";

/** A task assembled from its folder (lib/imports/cline-tasks.ts), or an API history uploaded alone. */
export type ClineTaskDocument = {
  /** api_conversation_history.json */
  api: unknown;
  /** ui_messages.json */
  ui?: unknown;
  /** task_metadata.json */
  metadata?: unknown;
  /** history_item.json (Roo Code) */
  historyItem?: unknown;
  /** The task folder's name; null for an API history without its folder. */
  taskId: string | null;
  variant: ClineVariant;
};

type Json = Record<string, JsonValue>;

const ROO_MESSAGE_KEYS = ["condenseId", "condenseParent", "truncationId", "truncationParent", "isTruncationMarker", "isSummary"];

/** The variant of an API history named `name`: from its task folder's path, else by content (Kilo Code only by its path). */
export function variantOf(doc: unknown, name: string): ClineVariant {
  return clineTaskPath(name)?.variant ?? variantByContent(doc);
}

/** Roo Code's own fields (its condense and truncation marks, reasoning items) in an API history: Roo Code (or Kilo Code, which no field tells apart); else Cline. */
export function variantByContent(api: unknown): ClineVariant {
  if (!Array.isArray(api)) return "cline";
  for (const message of api) {
    if (!isObject(message)) continue;
    if (ROO_MESSAGE_KEYS.some((key) => message[key] !== undefined)) return "roo-code";
    if (message.type === "reasoning" && message.role === undefined) return "roo-code";
  }
  return "cline";
}

function firstUserTexts(message: Json): string[] {
  const content = message.content;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => (isObject(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : []));
}

/**
 * An API history: a JSON list whose first entry is a user message `{role, content}` (content a
 * string or a list of blocks) that opens as the extensions open a task: a `<task>` or
 * `<user_message>` prompt, or an `<environment_details>` block; or a list of such messages named
 * api_conversation_history.json. Checked before plain role/content lists, which it would otherwise
 * match: a plain list opens with neither and is not so named.
 */
export function looksLikeClineApiHistory(doc: unknown, fileName: string): boolean {
  if (!Array.isArray(doc) || /\.jsonl$/i.test(fileName)) return false;
  const first = doc.find(isObject);
  if (!first || first.role !== "user" || !(typeof first.content === "string" || Array.isArray(first.content))) return false;
  if ("kind" in first || "parts" in first) return false;
  const texts = firstUserTexts(first);
  const opens = texts.some((t) => unwrapped(t) !== null || isEnvironmentDetails(t));
  const named = (fileName.split(/[\\/]/).pop() ?? "") === API_HISTORY_FILE;
  return opens || named;
}

/** The format of a variant. */
function formatOf(variant: ClineVariant): "cline" | "roo-code" | "kilo-code" {
  return variant;
}

/** An API history read alone (an upload): its task from the path when the name has one, else by content. */
export function documentOfHistory(api: unknown, name: string, forced?: ClineVariant): ClineTaskDocument {
  const where = clineTaskPath(name);
  return { api, taskId: where?.taskId ?? null, variant: forced ?? where?.variant ?? variantByContent(api) };
}

/** A key for a history without its task id: made from its first message, which a growing task never changes. */
function keyFromFirstMessage(api: readonly JsonValue[]): string {
  const first = api.find(isObject) ?? null;
  return `history-${createHash("sha256").update(JSON.stringify(first)).digest("hex").slice(0, 24)}`;
}

function listOrWarn(value: unknown, file: string, warnings: string[]): JsonValue[] | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value as JsonValue[];
  warnings.push(`${file} is not a JSON list: left out`);
  return null;
}

/** Parses one task. Throws ImportFormatError when the API history is not a list of messages. */
export function parseClineTask(doc: ClineTaskDocument, source: { name: string }): ParsedSource {
  const format = formatOf(doc.variant);
  const label = { cline: "Cline", "roo-code": "Roo Code", "kilo-code": "Kilo Code" }[doc.variant];
  if (!Array.isArray(doc.api))
    throw new ImportFormatError(
      `${source.name}: a ${label} API history must be a JSON list of messages, found ${doc.api === null ? "null" : typeof doc.api}`,
    );
  const api = doc.api as JsonValue[];
  const warnings: string[] = [];
  const history = historyTurns(api);
  const skipped: SkippedEntry[] = history.skipped.map((s) => ({ ...s, path: `${API_HISTORY_FILE}${s.path}` }));
  if (api.length > 0 && history.turns.length === 0)
    throw new ImportFormatError(
      `${source.name}: no message of the ${label} API history has a role and content (${skipped.length} entries left out)`,
    );
  const uiList = listOrWarn(doc.ui, "ui_messages.json", warnings);
  const ui = uiList ? uiRecords(uiList) : null;
  if (ui) skipped.push(...ui.skipped);
  if (doc.metadata !== undefined && doc.metadata !== null && !isObject(doc.metadata))
    warnings.push("task_metadata.json is not a JSON object: left out");
  const metadata = isObject(doc.metadata) ? doc.metadata : null;
  const historyItem = isObject(doc.historyItem) ? doc.historyItem : null;
  const key = doc.taskId ?? keyFromFirstMessage(api);

  const { turns, usageFacts } = attributed(doc.variant, history, ui, metadata, warnings, source.name);
  const subagents = subagentThreads(doc.variant, key, history, ui);
  const times = [history.firstTs, ui?.firstTs ?? null].filter((t): t is number => t !== null);
  const lastTimes = [history.lastTs, ui?.lastTs ?? null].filter((t): t is number => t !== null);
  const prompt = history.firstPrompt ?? ui?.taskText ?? null;
  const parentTaskId = historyItem ? str(historyItem.parentTaskId) : null;
  const thread: ImportedThread = {
    key,
    title: prompt ? collapse(prompt) : null,
    toolName: format,
    project: (historyItem ? str(historyItem.workspace) : null) ?? history.cwd,
    createdAt: times.length > 0 ? isoFromMs(Math.min(...times)) : null,
    lastUpdatedAt: lastTimes.length > 0 ? isoFromMs(Math.max(...lastTimes)) : null,
    ...(parentTaskId && parentTaskId !== key ? { parentKey: parentTaskId, relation: { kind: "subagent" as const, toolCallId: null } } : {}),
    metadata: threadMetadata(doc, metadata, historyItem, usageFacts),
    turns,
  };
  return { format, threads: [thread, ...subagents], skipped, warnings };
}

type UsageFacts = JsonObject;

/** The turns with usage, models and the ui's compaction figures attributed, and the extra turns placed. */
function attributed(
  variant: ClineVariant,
  history: HistoryTurns,
  ui: UiRecords | null,
  metadata: Json | null,
  warnings: string[],
  name: string,
): { turns: ImportedTurn[]; usageFacts: UsageFacts } {
  const uses = modelUsesOf(metadata ?? undefined);
  const requests = ui?.requests ?? [];
  const { matching, matched, unmatched } = matchRequests(requests, history.responses);
  const includesCache = usageIncludesCache(variant, requests);
  history.responses.forEach((response, j) => {
    const request = matched[j] ?? null;
    const turn = response.turn;
    if (request) {
      const usage = usageOfRecord(request.info, includesCache(request));
      if (usage) turn.usage = usage;
      turn.metadata = { ...turn.metadata, ...requestMetadata(request) };
    }
    const model = modelOf(response.modelInfo, request, uses, response.ts, response.environmentModel);
    if (model) {
      turn.modelProvider = model.provider;
      turn.modelName = model.name;
      turn.metadata = { ...turn.metadata, modelSource: model.source, ...(model.mode ? { mode: model.mode } : {}) };
    }
  });
  const extras: ImportedTurn[] = [];
  for (const request of unmatched) {
    const turn = orphanRequestTurn(request, usageOfRecord(request.info, includesCache(request)));
    if (!turn) continue;
    const model = modelOf(null, request, uses, request.ts, null);
    if (model) [turn.modelProvider, turn.modelName] = [model.provider, model.name];
    extras.push(turn);
  }
  for (const record of ui?.deleted ?? []) {
    const turn = deletedRequestsTurn(record, usageOfRecord(record.info, false));
    if (turn) extras.push(turn);
  }
  if (ui) condenseFigures(history, ui);
  const withoutUsage = matched.filter((r) => r === null).length;
  if (ui && matching === "order" && requests.length !== history.responses.length)
    warnings.push(
      `${name}: ${requests.length} API requests in ui_messages.json for ${history.responses.length} responses, and no times to pair them by: usage paired in order from the first`,
    );
  const usageFacts: UsageFacts = ui
    ? {
        usageMatching: matching,
        apiRequests: requests.length,
        responsesWithoutRequest: withoutUsage,
        requestsWithoutResponse: unmatched.length,
      }
    : { usage: "none: no ui_messages.json" };
  return { turns: placedByTime(history.turns, extras), usageFacts };
}

/** Roo Code's condense and truncation records: the tokens before and after on their compaction turns, by id, else in order. */
function condenseFigures(history: HistoryTurns, ui: UiRecords): void {
  const pair = <R extends { record: Json }>(
    kind: "summary" | "truncation",
    records: R[],
    idOf: (r: R) => string | null,
    markerId: (c: HistoryTurns["compactions"][number]) => string | null,
  ) => {
    const byId = new Map(records.flatMap((r) => (idOf(r) ? [[idOf(r)!, r] as const] : [])));
    const used = new Set<R>();
    const markers = history.compactions.filter((c) => c.kind === kind);
    const markerIds = new Set(markers.map(markerId));
    const rest = records.filter((r) => !idOf(r) || !markerIds.has(idOf(r)));
    let next = 0;
    for (const marker of markers) {
      const id = markerId(marker);
      let record = id ? byId.get(id) : undefined;
      if (!record || used.has(record)) record = rest[next++];
      if (!record) continue;
      used.add(record);
      const r = record.record;
      marker.turn.compaction = {
        ...marker.turn.compaction,
        tokensBefore: num(r.prevContextTokens),
        tokensAfter: num(r.newContextTokens),
      };
      if (!marker.turn.content && typeof r.summary === "string") marker.turn.content = r.summary;
      const cost = num(r.cost);
      const removed = num(r.messagesRemoved);
      marker.turn.metadata = {
        ...marker.turn.metadata,
        ...(cost !== null ? { condenseCostUsd: cost } : {}),
        ...(removed !== null ? { messagesRemoved: removed } : {}),
      };
    }
  };
  pair(
    "summary",
    ui.condenses,
    (r) => r.condenseId,
    (m) => m.condenseId,
  );
  pair(
    "truncation",
    ui.truncations,
    (r) => r.truncationId,
    (m) => m.truncationId,
  );
}

/** Cline's use_subagents calls, each with the usage its ui subagent_usage record reports (in order): a child thread each. */
function subagentThreads(variant: ClineVariant, key: string, history: HistoryTurns, ui: UiRecords | null): ImportedThread[] {
  if (variant !== "cline" || history.subagentCalls.length === 0) return [];
  const records = ui?.subagentUsage ?? [];
  return history.subagentCalls.map((call, i) => {
    const record = records[i] ?? null;
    const usage = record ? usageOfRecord(record.info, false) : null;
    const parent = call.turn;
    const turns: ImportedTurn[] = [
      { key: "prompts", role: "user", content: call.prompts.join("\n\n"), timestamp: parent.timestamp ?? null },
      {
        key: "results",
        role: "assistant",
        content: call.resultText ?? "",
        timestamp: isoFromMs(record?.ts ?? undefined) ?? parent.timestamp ?? null,
        modelProvider: parent.modelProvider ?? null,
        modelName: parent.modelName ?? null,
        ...(usage ? { usage } : {}),
        metadata: { subagentRun: true, ...(record ? {} : { usage: "not reported" }) },
      },
    ];
    return {
      key: `${key}:subagents:${call.toolCallId}`,
      parentKey: key,
      relation: { kind: "subagent", toolCallId: call.toolCallId },
      title: call.prompts[0] ? collapse(`Subagents: ${call.prompts[0]}`) : "Subagents",
      toolName: formatOf(variant),
      createdAt: parent.timestamp ?? null,
      metadata: { subagents: call.prompts.length, transcript: "none: Cline keeps only the sub-agents' results and summed usage" },
      turns,
    };
  });
}

function threadMetadata(doc: ClineTaskDocument, metadata: Json | null, historyItem: Json | null, usageFacts: UsageFacts): JsonObject {
  const kept: JsonObject = { variant: doc.variant, ...(doc.taskId ? { taskId: doc.taskId } : {}), ...usageFacts };
  if (metadata) {
    const uses = Array.isArray(metadata.model_usage) ? metadata.model_usage : [];
    if (uses.length > 0) kept.modelUsage = uses;
    const environments = Array.isArray(metadata.environment_history) ? metadata.environment_history : [];
    if (environments.length > 0) kept.environment = environments.at(-1)!;
    const files = Array.isArray(metadata.files_in_context) ? metadata.files_in_context : [];
    if (files.length > 0) kept.filesInContext = files.length;
  }
  if (historyItem) {
    for (const field of ["number", "mode", "apiConfigName", "status", "rootTaskId", "parentTaskId", "childIds", "totalCost"] as const) {
      if (historyItem[field] !== undefined) kept[field] = historyItem[field]!;
    }
  }
  return kept;
}
