// What each record does to the assembly: one handler per record type, per response item type and
// per event type (openai/codex codex-rs/protocol/src/models.rs ResponseItem, protocol.rs EventMsg).
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject } from "../types";
import type { RolloutAssembly } from "./assembly";
import type { RolloutRecord } from "./records";
import { contentText, defined, imagePart, jsonOrRaw, str } from "./values";

type Json = Record<string, JsonValue>;
type Handler = (assembly: RolloutAssembly, record: RolloutRecord, payload: Json) => void;

/** The table's own handler for a type read from the file (never one inherited from Object). */
function handlerFor(table: Record<string, Handler>, type: JsonValue | undefined): Handler | undefined {
  return typeof type === "string" && Object.hasOwn(table, type) ? table[type] : undefined;
}

/** Text Codex injects as user-role messages: context, not something the user typed. */
const INJECTED_CONTEXT =
  /^\s*(<environment_context>|<user_instructions>|<permissions instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions|<turn_aborted>|<user_shell_command>|<subagent_notification>|<skill>)/;
const ENVIRONMENT_CONTEXT = /^\s*<environment_context>/;
const INSTRUCTIONS = /^\s*(<user_instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions)/;

/** The handler of a record's envelope type; session_meta is read before the walk (index.ts). */
export function recordHandler(type: string): Handler | undefined {
  return handlerFor(RECORD_HANDLERS, type);
}

const RECORD_HANDLERS: Record<string, Handler> = {
  turn_context: (assembly, _record, context) => {
    assembly.endRequest();
    if (typeof context.model === "string") assembly.model = context.model;
    if (typeof context.effort === "string") assembly.effort = context.effort;
    if (typeof context.turn_id === "string") assembly.turnId = context.turn_id;
    if (assembly.project === null && typeof context.cwd === "string") assembly.project = context.cwd;
  },
  response_item: (assembly, record, item) => {
    const type = str(item.type) ?? "";
    const handler = handlerFor(ITEM_HANDLERS, type) ?? (type.endsWith("_call") ? newerToolCall : undefined);
    handler?.(assembly, record, item); // compaction (encrypted), ghost snapshots, …: nothing to show
  },
  event_msg: (assembly, record, event) => {
    const handler = handlerFor(EVENT_HANDLERS, event.type);
    handler?.(assembly, record, event); // exec_command_end, patch_apply_end, …: the response items carry the same
  },
  compacted: (assembly, record, payload) => {
    const message = payload.message;
    if (message !== undefined && typeof message !== "string")
      assembly.skipped.push({ line: record.line, reason: "compacted message: not a string" });
    else assembly.addCompaction(record, message ?? null, false);
  },
};

const ITEM_HANDLERS: Record<string, Handler> = {
  message: (assembly, record, item) => {
    const role = str(item.role);
    if (role === "assistant") return assistantMessage(assembly, record, item);
    if (role === "user") return userMessage(assembly, record, item);
    // developer / system: instructions, not shown
  },
  reasoning: (assembly, record, item) => {
    const target = assembly.assistant(record);
    if (Array.isArray(item.summary)) {
      for (const entry of item.summary) {
        const text = isObject(entry) ? str(entry.text) : null;
        if (text) assembly.addItemPart(target, { type: "thinking", text }, "thinking");
      }
    }
    // Raw reasoning text (open-weight models); encrypted_content is never read.
    const raw = contentText(item.content, ["reasoning_text", "text"]);
    if (raw) target.parts.push({ type: "thinking", text: raw, raw: true });
  },
  function_call: namedCall,
  custom_tool_call: namedCall,
  local_shell_call: (assembly, record, item) =>
    assembly.addCall(record, callIdOf(item, "local_shell", record), "local_shell", item.action ?? undefined),
  web_search_call: (assembly, record, item) =>
    assembly.addCall(record, callIdOf(item, "web_search", record), "web_search", item.action ?? undefined),
  // `result` holds the image as base64: only the prompt is kept.
  image_generation_call: (assembly, record, item) =>
    assembly.addCall(record, callIdOf(item, "image_generation", record), "image_generation", defined({ prompt: str(item.revised_prompt) })),
  function_call_output: callOutput,
  custom_tool_call_output: callOutput,
  tool_search_output: callOutput,
};

function assistantMessage(assembly: RolloutAssembly, record: RolloutRecord, item: Json): void {
  const text = contentText(item.content, ["output_text", "text"]);
  const target = assembly.assistant(record);
  if (text) assembly.addItemPart(target, { type: "text", text, ...(typeof item.phase === "string" ? { phase: item.phase } : {}) }, "text");
}

function userMessage(assembly: RolloutAssembly, record: RolloutRecord, item: Json): void {
  const text = contentText(item.content, ["input_text", "text"]);
  if (INJECTED_CONTEXT.test(text)) {
    const context = assembly.initialContext;
    if (ENVIRONMENT_CONTEXT.test(text) && context.environmentContext === undefined) context.environmentContext = text;
    if (INSTRUCTIONS.test(text) && context.instructions === undefined) context.instructions = text;
    return;
  }
  if (!assembly.promptsFromItems) {
    assembly.promptItemLine = record.line; // the typed prompt comes from its user_message event, which takes this line as key
    return;
  }
  const images = Array.isArray(item.content)
    ? item.content
        .filter((c) => isObject(c) && c.type === "input_image")
        .map((c) => imagePart(isObject(c) ? str(c.image_url) : null, "image attached to the prompt"))
    : [];
  if (text || images.length > 0) assembly.addUserTurn(record, text, images, []);
}

function namedCall(assembly: RolloutAssembly, record: RolloutRecord, item: Json): void {
  const type = str(item.type);
  const id = str(item.call_id);
  const name = str(item.name);
  if (!id || !name)
    return void assembly.skipped.push({ line: record.line, reason: `${type}: ${!id ? "call_id" : "name"} missing or not a string` });
  assembly.addCall(
    record,
    id,
    name,
    jsonOrRaw(type === "function_call" ? item.arguments : item.input),
    type === "custom_tool_call" ? { custom: true } : {},
  );
}

/** A newer kind of tool call (tool_search_call, …): shown as a call all the same. */
function newerToolCall(assembly: RolloutAssembly, record: RolloutRecord, item: Json): void {
  const type = str(item.type)!;
  assembly.addCall(
    record,
    callIdOf(item, type, record),
    str(item.name) ?? type.replace(/_call$/, ""),
    jsonOrRaw(item.arguments ?? item.input ?? item.action ?? undefined),
  );
}

function callOutput(assembly: RolloutAssembly, record: RolloutRecord, item: Json): void {
  const id = str(item.call_id);
  if (!id) return void assembly.skipped.push({ line: record.line, reason: `${str(item.type)}: call_id missing or not a string` });
  assembly.addToolResult(record, id, item.output);
}

/** The item's call id, else its id, else one made from its kind and line. */
function callIdOf(item: Json, kind: string, record: RolloutRecord): string {
  return str(item.call_id) ?? str(item.id) ?? `${kind}:${record.line}`;
}

const EVENT_HANDLERS: Record<string, Handler> = {
  user_message: (assembly, record, event) => {
    const message = str(event.message);
    if (message === null) return void assembly.skipped.push({ line: record.line, reason: "user_message message: missing or not a string" });
    const parts: TurnPart[] = [];
    const paths: string[] = [];
    if (Array.isArray(event.images))
      for (const url of event.images) parts.push(imagePart(typeof url === "string" ? url : null, "image attached to the prompt"));
    if (Array.isArray(event.local_images)) {
      for (const local of event.local_images) {
        const localPath = typeof local === "string" ? local : isObject(local) ? str(local.path) : null;
        if (localPath) paths.push(localPath);
        parts.push(imagePart(null, "local image attached to the prompt", localPath ?? undefined));
      }
    }
    assembly.addUserTurn(record, message, parts, paths, String(assembly.promptItemLine ?? record.line));
  },
  agent_message: (assembly, record, event) => {
    const message = str(event.message);
    if (!message) return;
    const part: TurnPart = {
      type: "text",
      text: message,
      fromEvent: true,
      ...(typeof event.phase === "string" ? { phase: event.phase } : {}),
    };
    assembly.addEventPart(assembly.assistant(record, false), part, "text");
  },
  agent_reasoning: (assembly, record, event) => {
    const text = str(event.text);
    if (text) assembly.addEventPart(assembly.assistant(record, false), { type: "thinking", text, fromEvent: true }, "thinking");
  },
  token_count: (assembly, record, event) => assembly.ledger.count(record.line, event.info),
  task_started: (assembly, _record, event) => assembly.startTask(typeof event.turn_id === "string" ? event.turn_id : null),
  task_complete: (assembly) => assembly.endTask(),
  turn_aborted: (assembly) => assembly.endTask(),
  context_compacted: (assembly, record) => assembly.addCompaction(record, null, true),
  thread_rolled_back: (assembly, record) => assembly.rollBack(record),
};
