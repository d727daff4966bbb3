// What the ChatGPT importer's tests share: summaries of parsed threads and conversations built from rows.
import type { ImportedThread, ParsedSource } from "../types";
import { parseChatGptExport } from "./index";

export const SOURCE = { name: "conversations.json" };

export function summary(thread: ImportedThread) {
  const roles: Record<string, number> = {};
  for (const turn of thread.turns) roles[turn.role] = (roles[turn.role] ?? 0) + 1;
  const parts = thread.turns.flatMap((t) => t.parts ?? []);
  const callIds = new Set(parts.flatMap((p) => (p.type === "tool_call" ? [p.id] : [])));
  return {
    turns: thread.turns.length,
    roles,
    toolCalls: parts.filter((p) => p.type === "tool_call").length,
    toolResultsPaired: parts.filter((p) => p.type === "tool_result" && callIds.has(p.toolCallId)).length,
    toolErrors: parts.filter((p) => p.type === "tool_result" && p.isError === true).length,
    models: [...new Set(thread.turns.map((t) => t.modelName).filter(Boolean))].sort(),
    usage: thread.turns.filter((t) => t.usage).length,
  };
}

export function byKey(parsed: ParsedSource, key: string): ImportedThread {
  const thread = parsed.threads.find((t) => t.key === key);
  if (!thread) throw new Error(`no thread ${key}; have ${parsed.threads.map((t) => t.key).join(", ")}`);
  return thread;
}

type Msg = {
  role: string;
  text?: string;
  content?: Record<string, unknown>;
  recipient?: string;
  time?: number | null;
  name?: string;
  metadata?: Record<string, unknown>;
};

export type NodeSpec = [id: string, parent: string | null, message: Msg | null];

/** A conversation from [id, parent, message] rows; children follow the row order. */
export function conversation(id: string, rows: NodeSpec[], currentNode: string | null, extra: Record<string, unknown> = {}) {
  const mapping: Record<string, unknown> = {};
  let clock = 1_700_000_000;
  for (const [nodeId, parent, msg] of rows) {
    const children = rows.filter(([, p]) => p === nodeId).map(([c]) => c);
    mapping[nodeId] = {
      id: nodeId,
      parent,
      children,
      message: msg && {
        id: nodeId,
        author: { role: msg.role, name: msg.name ?? null, metadata: {} },
        create_time: msg.time === undefined ? clock++ : msg.time,
        content: msg.content ?? { content_type: "text", parts: [msg.text ?? ""] },
        status: "finished_successfully",
        recipient: msg.recipient ?? "all",
        weight: 1,
        metadata: msg.metadata ?? {},
      },
    };
  }
  return {
    id,
    title: `Title ${id}`,
    create_time: 1_700_000_000.5,
    update_time: 1_700_000_100,
    mapping,
    current_node: currentNode,
    ...extra,
  };
}

export const root = (id = "root"): NodeSpec => [id, null, null];
export const sys = (id = "sys", parent = "root"): NodeSpec => [id, parent, { role: "system", text: "" }];

export function parse(doc: unknown): ParsedSource {
  return parseChatGptExport(doc, SOURCE);
}
