import type { JsonObject, Thread, Turn, TurnPart, TurnRole } from "@/lib/domain/types";
import { isExpired } from "@/lib/domain/threads/expiry";
import type { FileSnapshot as FileSnapshotRow, Thread as ThreadRow, Turn as TurnRow } from "../generated/client";

/** JSON columns are written only by this layer from validated values, so parsing cannot fail. */
function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export function toThread(row: ThreadRow, now: Date = new Date()): Thread {
  return {
    id: row.id,
    parentThreadId: row.parentThreadId,
    title: row.title,
    toolName: row.toolName,
    initialContext: parseJson<JsonObject>(row.initialContext) ?? {},
    metadata: parseJson<JsonObject>(row.metadata),
    project: row.project,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    expired: isExpired(row.expiresAt, now),
    turnCount: row.turnCount,
    tokenEstimate: row.tokenEstimate,
    tokens: null,
    modelsUsed: parseJson<string[]>(row.modelsUsed) ?? [],
    usage: null,
    ownerId: row.ownerId,
    visibility: row.visibility === "team" ? "team" : "private",
    machine: row.machine,
  };
}

/** Loads a turn's snapshots with it, in the order they were given. */
export const WITH_SNAPSHOTS = { snapshots: { orderBy: { position: "asc" } } } as const;

export function toTurn(row: TurnRow & { snapshots?: FileSnapshotRow[] }): Turn {
  return {
    id: row.id,
    threadId: row.threadId,
    index: row.index,
    role: row.role as TurnRole,
    content: row.content,
    timestamp: row.timestamp.toISOString(),
    files: parseJson<string[]>(row.files) ?? [],
    images: parseJson<string[]>(row.images) ?? [],
    toolName: row.toolName,
    modelProvider: row.modelProvider,
    modelName: row.modelName,
    modelMetadata: parseJson<JsonObject>(row.modelMetadata),
    parts: partsFromStored(row.parts, row.content),
    fileSnapshots: (row.snapshots ?? []).map((s) => ({ path: s.path, content: s.content })),
    tokenEstimate: row.tokenEstimate,
    tokens: null,
    usage: null,
  };
}

/** Stored JSON text read back, or null when there is none or it does not parse (a usage sum skips it rather than failing). */
export function parsedOrNull<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** Distinct model names in order of first use. */
export function mergeModels(known: string[], added: (string | null)[]): string[] {
  const out = [...known];
  for (const name of added) if (name && !out.includes(name)) out.push(name);
  return out;
}

/** How parts are stored when one of their fields is the turn's content, not repeated. */
type SharedContentParts = { contentAt: [number, "text" | "content"]; parts: TurnPart[] };

/**
 * The stored text of a turn's parts. A text part or tool result whose text is the turn's whole
 * content (most imported turns: the content is the readable rendering of that one part) keeps
 * that field as null, and the record says which: imported sessions would otherwise store their
 * text twice, 40% of their bytes. Key order is kept, so a turn reads back exactly as written.
 */
export function storedParts(parts: readonly { type: string; [key: string]: unknown }[] | null | undefined, content: string): string | null {
  if (parts === null || parts === undefined) return null;
  if (content !== "") {
    for (const [index, part] of parts.entries()) {
      const field =
        part.type === "text" && part.text === content ? "text" : part.type === "tool_result" && part.content === content ? "content" : null;
      if (field === null) continue;
      const shared = { contentAt: [index, field], parts: parts.map((p, i) => (i === index ? { ...p, [field]: null } : p)) };
      return JSON.stringify(shared);
    }
  }
  return JSON.stringify(parts);
}

/** A turn's parts from their stored text (see storedParts). */
export function partsFromStored(stored: string | null, content: string): TurnPart[] | null {
  const value = parseJson<TurnPart[] | SharedContentParts>(stored);
  if (value === null || Array.isArray(value)) return value;
  const [index, field] = value.contentAt;
  const part = value.parts[index];
  if (part) (part as Record<string, unknown>)[field] = content;
  return value.parts;
}

/** The turn with its stored default-tokenizer count, as the whole thread gives it. */
export function withStoredCount(row: Parameters<typeof toTurn>[0] & { tokenCounts: { tokens: number; estimated: boolean }[] }): Turn {
  const count = row.tokenCounts[0];
  return { ...toTurn(row), tokens: count?.tokens ?? null, ...(count ? { tokensEstimated: count.estimated } : {}) };
}
