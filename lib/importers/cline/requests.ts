// What ui_messages.json and task_metadata.json add to the turns of the API history: each
// response's usage, cost and model, the condense records, and usage no response carries. The rules
// are described at the top of ./index.ts.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type ImportedUsage, type SkippedEntry } from "../types";
import type { ClineVariant } from "./paths";
import { isoFromMs, num, str, type Response } from "./turns";

type Json = Record<string, JsonValue>;

/**
 * One `say: "api_req_started"` record: a request to the model, its usage filled in when it ended.
 * @internal exported for its tests
 */
export type ApiRequest = {
  uiIndex: number;
  ts: number | null;
  info: Json;
  /** Cline: the API history's length - 1 when the record was made (the request's prompt comes next). */
  historyIndex: number | null;
  modelInfo: { providerId: string | null; modelId: string | null; mode: string | null } | null;
};

/** A usage record that no response of the history carries: Cline's deleted_api_reqs and subagent_usage. */
type UsageRecord = { uiIndex: number; ts: number | null; info: Json };

export type UiRecords = {
  requests: ApiRequest[];
  condenses: { ts: number | null; condenseId: string | null; record: Json }[];
  truncations: { ts: number | null; truncationId: string | null; record: Json }[];
  deleted: UsageRecord[];
  subagentUsage: UsageRecord[];
  /** The prompt as typed: Cline's first `say: "task"` record, Roo Code's and Kilo Code's first record (`say: "text"`). */
  taskText: string | null;
  firstTs: number | null;
  lastTs: number | null;
  skipped: SkippedEntry[];
};

function parsedText(text: JsonValue | undefined): Json | null {
  if (typeof text !== "string") return null;
  try {
    const value = JSON.parse(text) as JsonValue;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function modelInfoOf(value: JsonValue | undefined): ApiRequest["modelInfo"] {
  if (!isObject(value)) return null;
  return { providerId: str(value.providerId), modelId: str(value.modelId), mode: str(value.mode) };
}

/** The records of ui_messages.json this import uses; one whose JSON text cannot be read goes to `skipped`. */
export function uiRecords(list: readonly JsonValue[]): UiRecords {
  const records: UiRecords = {
    requests: [],
    condenses: [],
    truncations: [],
    deleted: [],
    subagentUsage: [],
    taskText: null,
    firstTs: null,
    lastTs: null,
    skipped: [],
  };
  list.forEach((message, uiIndex) => {
    if (!isObject(message)) return;
    const ts = num(message.ts);
    if (ts !== null && ts > 0) {
      records.firstTs = records.firstTs === null ? ts : Math.min(records.firstTs, ts);
      records.lastTs = records.lastTs === null ? ts : Math.max(records.lastTs, ts);
    }
    if (message.type !== "say") return;
    const path = `ui_messages.json[${uiIndex}]`;
    switch (message.say) {
      case "task":
        if (records.taskText === null && typeof message.text === "string") records.taskText = message.text;
        return;
      case "text":
        if (uiIndex === 0 && typeof message.text === "string") records.taskText = message.text;
        return;
      case "api_req_started": {
        const info = parsedText(message.text);
        if (!info) {
          records.skipped.push({ path, reason: "api_req_started whose text is not a JSON object: its usage is not known" });
          return;
        }
        records.requests.push({
          uiIndex,
          ts,
          info,
          historyIndex: num(message.conversationHistoryIndex),
          modelInfo: modelInfoOf(message.modelInfo),
        });
        return;
      }
      case "deleted_api_reqs":
      case "subagent_usage": {
        const info = parsedText(message.text);
        if (!info) {
          records.skipped.push({ path, reason: `${message.say} whose text is not a JSON object` });
          return;
        }
        (message.say === "deleted_api_reqs" ? records.deleted : records.subagentUsage).push({ uiIndex, ts, info });
        return;
      }
      case "condense_context":
        if (isObject(message.contextCondense))
          records.condenses.push({ ts, condenseId: str(message.contextCondense.condenseId), record: message.contextCondense });
        return;
      case "sliding_window_truncation":
        if (isObject(message.contextTruncation))
          records.truncations.push({ ts, truncationId: str(message.contextTruncation.truncationId), record: message.contextTruncation });
        return;
      default:
        return;
    }
  });
  return records;
}

/**
 * Whether Roo Code's / Kilo Code's `tokensIn` includes the cache reads and writes. Since Roo Code
 * 416fa57 (Oct 31, 2025) it always does (the total input); before, it did for OpenAI-style
 * providers (`apiProtocol: "openai"`) and did not for Anthropic ones. A task whose Anthropic-style
 * request read or wrote more cache than its tokensIn is of the older kind (an including count
 * cannot be smaller than what it includes); otherwise its counts are taken to include the cache.
 * @internal exported for its tests
 */
export function rooTokensInIncludesCache(requests: readonly { info: Json }[]): boolean {
  for (const { info } of requests) {
    if (info.apiProtocol === "openai") continue;
    const cache = (num(info.cacheReads) ?? 0) + (num(info.cacheWrites) ?? 0);
    const tokensIn = num(info.tokensIn);
    if (cache > 0 && tokensIn !== null && tokensIn < cache) return false;
  }
  return true;
}

/**
 * A request's (or usage record's) usage as Threadline counts it: inputTokens without the cache.
 * Cline's tokensIn excludes the cache (its providers report it so, and its own price reads it so);
 * Roo Code's and Kilo Code's see rooTokensInIncludesCache. Null when the record has no count (a
 * request still running, or one that failed before any token).
 * @internal exported for its tests
 */
export function usageOfRecord(info: Json, includesCache: boolean): ImportedUsage | null {
  const tokensIn = num(info.tokensIn);
  const tokensOut = num(info.tokensOut);
  const reads = num(info.cacheReads);
  const writes = num(info.cacheWrites);
  const cost = num(info.cost);
  if (tokensIn === null && tokensOut === null && reads === null && writes === null && cost === null) return null;
  const cache = (reads ?? 0) + (writes ?? 0);
  const input = tokensIn ?? 0;
  const usage: ImportedUsage = {
    inputTokens: includesCache ? Math.max(0, input - cache) : input,
    outputTokens: tokensOut ?? 0,
    cacheReadTokens: reads ?? 0,
    cacheWriteTokens: writes ?? 0,
  };
  if (cost !== null && cost >= 0) usage.reportedCostUsd = cost;
  return usage;
}

function hasTokens(usage: ImportedUsage | null): boolean {
  if (!usage) return false;
  return (
    (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) > 0 ||
    (usage.reportedCostUsd ?? 0) > 0
  );
}

type Matching = "time" | "history-index" | "order";

/**
 * Which request each response answers. Each request happens before its response and after the
 * previous response, so the requests between two responses belong to the later one; when there are
 * several (a request that failed and was retried), the last is its request and the others answered
 * nothing. "Between" is read, in this order of preference: by time, when every request and every
 * response has its `ts`; by Cline's conversationHistoryIndex (the request's prompt follows the
 * message at that index) when every request has one; else by order alone (the n-th request answers
 * the n-th response, the counts may differ at the end). Linear in both counts.
 * @internal exported for its tests
 */
export function matchRequests(
  requests: readonly ApiRequest[],
  responses: readonly Pick<Response, "apiIndex" | "ts">[],
): { matching: Matching; matched: (ApiRequest | null)[]; unmatched: ApiRequest[] } {
  let matching: Matching = "order";
  if (requests.length > 0 && requests.every((r) => r.ts !== null) && responses.every((r) => r.ts !== null)) matching = "time";
  else if (requests.length > 0 && requests.every((r) => r.historyIndex !== null)) matching = "history-index";
  const requestAt = (r: ApiRequest, i: number) => (matching === "time" ? r.ts! : matching === "history-index" ? r.historyIndex! + 0.5 : i);
  const responseAt = (r: Pick<Response, "apiIndex" | "ts">, j: number) =>
    matching === "time" ? r.ts! + 0.5 : matching === "history-index" ? r.apiIndex : j + 0.5;
  // Stable, so that records of the same time keep the ui's order.
  const ordered = requests.map((r, i) => ({ r, at: requestAt(r, i) })).sort((a, b) => a.at - b.at);
  const matched: (ApiRequest | null)[] = [];
  const unmatched: ApiRequest[] = [];
  let next = 0;
  responses.forEach((response, j) => {
    const at = responseAt(response, j);
    let candidate: ApiRequest | null = null;
    while (next < ordered.length && ordered[next]!.at < at) {
      if (candidate) unmatched.push(candidate);
      candidate = ordered[next]!.r;
      next++;
    }
    matched.push(candidate);
  });
  for (; next < ordered.length; next++) unmatched.push(ordered[next]!.r);
  return { matching, matched, unmatched };
}

/** task_metadata.json's model_usage: which model was in use from when (one entry per change). */
type ModelUse = { ts: number; modelId: string; providerId: string | null; mode: string | null };

export function modelUsesOf(metadata: JsonValue | undefined): ModelUse[] {
  if (!isObject(metadata) || !Array.isArray(metadata.model_usage)) return [];
  const uses: ModelUse[] = [];
  for (const entry of metadata.model_usage) {
    if (!isObject(entry) || typeof entry.model_id !== "string" || !entry.model_id) continue;
    uses.push({ ts: num(entry.ts) ?? 0, modelId: entry.model_id, providerId: str(entry.model_provider_id), mode: str(entry.mode) });
  }
  return uses.sort((a, b) => a.ts - b.ts);
}

/** The model in use at `ts`: the last change at or before it (the first one, for a time before all). Without a time, only a task that used one model tells. */
function modelUseAt(uses: readonly ModelUse[], ts: number | null): ModelUse | null {
  if (uses.length === 0) return null;
  if (ts === null) return uses.every((u) => u.modelId === uses[0]!.modelId && u.providerId === uses[0]!.providerId) ? uses[0]! : null;
  let low = 0;
  let high = uses.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (uses[mid]!.ts <= ts) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return uses[Math.max(found, 0)]!;
}

/**
 * The model of a response: the message's own modelInfo (Cline, Nov 2025 on), its request's
 * (Cline's ui records), task_metadata.json's model_usage at its time, else the `<model>` the
 * environment details before it named (Roo Code, Kilo Code; no provider).
 */
export function modelOf(
  modelInfo: Response["modelInfo"],
  request: ApiRequest | null,
  uses: readonly ModelUse[],
  ts: number | null,
  environmentModel: string | null,
): { provider: string | null; name: string | null; mode: string | null; source: string } | null {
  if (modelInfo?.modelId) return { provider: modelInfo.providerId, name: modelInfo.modelId, mode: modelInfo.mode, source: "message" };
  if (request?.modelInfo?.modelId)
    return { provider: request.modelInfo.providerId, name: request.modelInfo.modelId, mode: request.modelInfo.mode, source: "request" };
  const use = modelUseAt(uses, ts ?? request?.ts ?? null);
  if (use) return { provider: use.providerId, name: use.modelId, mode: use.mode, source: "task_metadata" };
  if (environmentModel) return { provider: null, name: environmentModel, mode: null, source: "environment_details" };
  return null;
}

/** What of a request is kept in its turn's metadata besides the usage: how it ended, the protocol. */
export function requestMetadata(request: ApiRequest): JsonObject {
  const kept: JsonObject = {};
  for (const key of ["apiProtocol", "cancelReason", "streamingFailedMessage", "inferenceProvider", "usageMissing"] as const) {
    const value = request.info[key];
    if (value !== undefined && value !== null) kept[key] = value;
  }
  if (request.ts !== null) kept.requestTs = request.ts;
  return kept;
}

/** A turn for a request that no response of the history answers but that used tokens (cancelled, failed mid-stream, or its response removed). */
export function orphanRequestTurn(request: ApiRequest, usage: ImportedUsage | null): ImportedTurn | null {
  if (!hasTokens(usage)) return null;
  return {
    key: `ui:${request.ts ?? `#${request.uiIndex}`}`,
    role: "assistant",
    content: "",
    timestamp: isoFromMs(request.ts ?? undefined),
    usage,
    metadata: { ...requestMetadata(request), apiRequestWithoutResponse: true },
  };
}

/** Cline's deleted_api_reqs: the usage of the requests whose messages were deleted (a checkpoint restore), kept on a marker turn. */
export function deletedRequestsTurn(record: UsageRecord, usage: ImportedUsage | null): ImportedTurn | null {
  if (!hasTokens(usage)) return null;
  return {
    key: `ui:${record.ts ?? `#${record.uiIndex}`}`,
    role: "system",
    content: "API requests whose messages were deleted (their usage, as Cline kept it)",
    timestamp: isoFromMs(record.ts ?? undefined),
    usage,
    metadata: { deletedApiRequests: true },
  };
}

/**
 * Extra turns put where their time falls among `turns` (before the first turn of a later time);
 * extras without a time, or when the turns have none, at the end. Linear after sorting the extras.
 */
export function placedByTime(turns: ImportedTurn[], extras: ImportedTurn[]): ImportedTurn[] {
  if (extras.length === 0) return turns;
  const timeOf = (t: ImportedTurn) => (t.timestamp ? Date.parse(t.timestamp) : Number.NaN);
  const timed = extras.filter((t) => Number.isFinite(timeOf(t))).sort((a, b) => timeOf(a) - timeOf(b));
  const untimed = extras.filter((t) => !Number.isFinite(timeOf(t)));
  const out: ImportedTurn[] = [];
  let next = 0;
  for (const turn of turns) {
    const at = timeOf(turn);
    while (next < timed.length && Number.isFinite(at) && timeOf(timed[next]!) < at) out.push(timed[next++]!);
    out.push(turn);
  }
  while (next < timed.length) out.push(timed[next++]!);
  return [...out, ...untimed];
}

export function usageIncludesCache(variant: ClineVariant, requests: readonly ApiRequest[]): (request: { info: Json }) => boolean {
  if (variant === "cline") return () => false;
  const anthropicIncludes = rooTokensInIncludesCache(requests);
  return ({ info }) => info.apiProtocol === "openai" || anthropicIncludes;
}
