/**
 * PAL MCP server (formerly zen-mcp-server) conversation threads (docs/formats.md §9, "PAL").
 *
 * PAL keeps threads in process memory as `ThreadContext.model_dump_json()` (utils/conversation_memory.py),
 * so there is no file PAL writes itself: this reads such a dump, either one ThreadContext object or a
 * JSON list of them. PAL's own thread_id (a UUID) is the thread's key and sourceId, so re-importing a
 * dump, or a later dump of the same thread with more turns, updates the same thread.
 *
 * ThreadContext   {thread_id, parent_thread_id?, created_at, last_updated_at, tool_name, turns, initial_context}
 * ConversationTurn {role: "user"|"assistant", content, timestamp, files?, images?, tool_name?,
 *                   model_provider?, model_name?, model_metadata?}
 * Turns carry plain text only (no tool-call structure); model_metadata.usage holds token counts for
 * simple tools, workflow tools keep their workflow state there instead.
 */
import { isUuid } from "@/lib/domain/ids";
import type { JsonValue } from "@/lib/domain/types";
import {
  ImportFormatError,
  isObject,
  type ImportedThread,
  type ImportedTurn,
  type ImportedUsage,
  type ParsedSource,
  type SkippedEntry,
} from "./types";
import { collapse, isoUtc } from "./text";
import { isRealPrompt } from "@/lib/domain/threads/title";

const PAL_ROLES = ["user", "assistant"] as const;

/** Does this value look like one ThreadContext? Only the fields every dump has. */
function isThreadContextLike(value: unknown): value is Record<string, JsonValue> {
  return isObject(value) && typeof value.thread_id === "string" && Array.isArray(value.turns);
}

/**
 * A cheap check on the parsed document: a ThreadContext, or a list whose first element is one.
 * Exclusive with the other JSON formats: a Threadline export carries `format`, a ChatGPT export's
 * conversations carry `mapping`, pydantic-ai messages `kind`/`parts`, plain lists `role`/`content`;
 * none of them has `thread_id` + `turns`.
 */
export function looksLikePalThreads(doc: unknown, fileName: string): boolean {
  if (/\.jsonl$/i.test(fileName)) return false;
  const first = Array.isArray(doc) ? doc[0] : doc;
  return isThreadContextLike(first) && !("format" in first) && !("mapping" in first);
}

export function parsePalThreads(doc: unknown, source: { name: string }): ParsedSource {
  const single = !Array.isArray(doc);
  const candidates: unknown[] = Array.isArray(doc) ? doc : [doc];
  if (single && !isThreadContextLike(doc)) {
    throw new ImportFormatError(
      `${source.name}: not a PAL ThreadContext (expected an object with thread_id and a turns list, or a list of them)`,
    );
  }
  if (!single && candidates.length > 0 && !candidates.some((c) => isObject(c) && "thread_id" in c)) {
    throw new ImportFormatError(`${source.name}: not PAL ThreadContext dumps (no element of the list has a thread_id)`);
  }

  const threads: ImportedThread[] = [];
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, string>(); // thread_id -> path of its first occurrence

  candidates.forEach((candidate, index) => {
    const path = single ? "" : `[${index}]`; // a single ThreadContext is its own root
    if (!isObject(candidate)) {
      skipped.push({ path, reason: "must be a ThreadContext object" });
      return;
    }
    const threadId = candidate.thread_id;
    if (typeof threadId !== "string" || !threadId.trim()) {
      skipped.push({ path: field(path, "thread_id"), reason: "thread_id: must be a non-empty string" });
      return;
    }
    if (!Array.isArray(candidate.turns)) {
      skipped.push({ path: field(path, "turns"), reason: "turns: must be a list" });
      return;
    }
    const earlier = seen.get(threadId);
    if (earlier !== undefined) {
      skipped.push({ path, reason: `thread_id: ${threadId} already imported from ${earlier}` });
      return;
    }
    seen.set(threadId, path);
    threads.push(threadFromContext(candidate, threadId, candidate.turns, path, skipped, warnings));
  });

  return { format: "pal", threads, skipped, warnings };
}

function threadFromContext(
  context: Record<string, JsonValue>,
  threadId: string,
  rawTurns: JsonValue[],
  path: string,
  skipped: SkippedEntry[],
  warnings: string[],
): ImportedThread {
  const turnsPath = field(path, "turns");
  const turns: ImportedTurn[] = [];
  rawTurns.forEach((raw, index) => {
    const turn = turnFromConversationTurn(raw, index, `${turnsPath}[${index}]`, skipped);
    if (turn) turns.push(turn);
  });

  const threadIdIsUuid = isUuid(threadId);
  if (!threadIdIsUuid) warnings.push(`thread ${threadId}: thread_id is not a UUID, kept as the key but not as the source id`);
  const parent = typeof context.parent_thread_id === "string" && context.parent_thread_id.trim() ? context.parent_thread_id : null;
  let toolName = typeof context.tool_name === "string" && context.tool_name.trim() ? context.tool_name : null;
  if (!toolName) {
    toolName = turns.find((t) => t.toolName)?.toolName ?? "pal";
    warnings.push(`thread ${threadId}: tool_name missing, using "${toolName}"`);
  }
  const firstUser = turns.find((t) => t.role === "user" && isRealPrompt(t.content));

  return {
    key: threadId,
    sourceId: threadIdIsUuid ? threadId : null,
    parentKey: parent,
    relation: parent ? { kind: "continuation" } : null,
    title: firstUser ? collapse(firstUser.content) : null,
    toolName,
    createdAt: isoUtc(context.created_at) ?? turns[0]?.timestamp ?? null,
    lastUpdatedAt: isoUtc(context.last_updated_at) ?? turns.at(-1)?.timestamp ?? null,
    ...(isObject(context.initial_context) ? { initialContext: context.initial_context } : {}),
    turns,
  };
}

/** One ConversationTurn, or null (and a SkippedEntry) when it is unusable. The key is its index in `turns`. */
function turnFromConversationTurn(raw: JsonValue, index: number, path: string, skipped: SkippedEntry[]): ImportedTurn | null {
  if (!isObject(raw)) {
    skipped.push({ path, reason: "must be a ConversationTurn object" });
    return null;
  }
  const role = raw.role;
  if (role !== "user" && role !== "assistant") {
    skipped.push({ path: `${path}.role`, reason: `role: must be one of ${PAL_ROLES.join(", ")}` });
    return null;
  }
  if (typeof raw.content !== "string") {
    skipped.push({ path: `${path}.content`, reason: "content: must be a string" });
    return null;
  }
  const metadata = isObject(raw.model_metadata) ? raw.model_metadata : null;
  // Usage belongs to a model response; a user turn has none to count.
  const usage = role === "assistant" && metadata ? usageOf(metadata.usage) : null;
  const files = stringList(raw.files);
  const images = stringList(raw.images);
  return {
    key: String(index),
    role,
    content: raw.content,
    timestamp: isoUtc(raw.timestamp),
    toolName: nonEmptyString(raw.tool_name),
    modelProvider: nonEmptyString(raw.model_provider),
    modelName: nonEmptyString(raw.model_name),
    usage,
    ...(files.length > 0 ? { files } : {}),
    ...(images.length > 0 ? { images } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

/**
 * model_metadata.usage as PAL's providers write it: {input_tokens, output_tokens, total_tokens}
 * (OpenAI-style prompt_tokens/completion_tokens accepted too). total_tokens is derived, so dropped.
 */
function usageOf(value: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(value)) return null;
  const count = (...keys: string[]) => {
    for (const key of keys) {
      const v = value[key];
      if (typeof v === "number" && Number.isFinite(v) && v >= 0) return Math.round(v);
    }
    return undefined;
  };
  const usage: ImportedUsage = {};
  const input = count("input_tokens", "prompt_tokens");
  const output = count("output_tokens", "completion_tokens");
  const reasoning = count("reasoning_tokens", "thinking_tokens");
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.keys(usage).length > 0 ? usage : null;
}

/** `[2]` + `turns` -> `[2].turns`; a single document has no prefix. */
function field(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0) : [];
}

function nonEmptyString(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value.trim() ? value : null;
}
