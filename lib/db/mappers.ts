import type { JsonObject, Thread, Turn, TurnPart, TurnRole } from "@/lib/domain/types";
import { isExpired } from "@/lib/domain/expiry";
import type { FileSnapshot as FileSnapshotRow, Thread as ThreadRow, Turn as TurnRow } from "./generated/client";

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
    parts: parseJson<TurnPart[]>(row.parts),
    fileSnapshots: (row.snapshots ?? []).map((s) => ({ path: s.path, content: s.content })),
    tokenEstimate: row.tokenEstimate,
    tokens: null,
    usage: null,
  };
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
