import { searchableTurnText } from "@/lib/domain/secrets/detect";
import { estimateTokens } from "@/lib/domain/tokens/tokens";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { importedTurnId } from "@/lib/importers/stable-id";
import type { ImportedThread, ImportedTurn, ImportFormat } from "@/lib/importers/types";
import type { TurnInsertRow } from "./import-rows";
import type { ImportedFrom, SourceFile } from "./imports";
import { storedParts } from "../engine/mappers";

// How a parsed source's turns and threads become the rows and metadata an import writes (turn-stream-import.ts).

/**
 * A stored sub-agent's metadata with its relation's toolCallId set from `calls` (agentId -> call
 * id), or null when it is no sub-agent of those calls or already says so.
 */
export function linkedMetadata(text: string | null, calls: ReadonlyMap<string, string>): string | null {
  let metadata: unknown;
  try {
    metadata = text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const relation = (metadata as { relation?: unknown }).relation;
  if (!relation || typeof relation !== "object" || Array.isArray(relation)) return null;
  const { kind, agentId, toolCallId } = relation as Record<string, unknown>;
  const callId = kind === "subagent" && typeof agentId === "string" ? calls.get(agentId) : undefined;
  if (!callId || toolCallId === callId) return null;
  return JSON.stringify({ ...metadata, relation: { ...relation, toolCallId: callId } });
}

export function toTurnRow(turn: ImportedTurn, threadId: string, index: number, fallbackTime: Date): TurnInsertRow {
  const parts: TurnPart[] = [...(turn.parts ?? [])];
  if (turn.compaction)
    parts.push({
      type: "compaction",
      trigger: turn.compaction.trigger ?? null,
      tokensBefore: turn.compaction.tokensBefore ?? null,
      tokensAfter: turn.compaction.tokensAfter ?? null,
    });
  const metadata: JsonObject = { ...(turn.metadata ?? {}) };
  if (turn.usage && Object.values(turn.usage).some((v) => v !== undefined)) {
    metadata.usage = { ...(turn.usage as Record<string, JsonValue>), source: "reported" };
  }
  const time = turn.timestamp ? new Date(turn.timestamp) : fallbackTime;
  const row: TurnInsertRow = {
    id: "",
    threadId,
    index,
    role: turn.role,
    content: turn.content,
    searchContent: searchableTurnText(turn.content, parts),
    timestamp: Number.isNaN(time.getTime()) ? fallbackTime : time,
    files: JSON.stringify(turn.files ?? []),
    images: JSON.stringify(turn.images ?? []),
    toolName: turn.toolName ?? null,
    modelProvider: turn.modelProvider ?? null,
    modelName: turn.modelName ?? null,
    modelMetadata: Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null,
    parts: parts.length > 0 ? storedParts(parts, turn.content) : null,
    tokenEstimate: estimateTokens(turn.content),
  };
  // Everything stored but the index and the fallback time (a source without times gets "now").
  row.id = importedTurnId(threadId, turn.key, [
    row.role,
    row.content,
    turn.timestamp ?? null,
    row.files,
    row.images,
    row.toolName,
    row.modelProvider,
    row.modelName,
    row.modelMetadata,
    row.parts,
  ]);
  return row;
}

/** The thread's own metadata and where it was imported from; `sha256` is the content it holds now (previousImport). */
export function threadMetadata(thread: Omit<ImportedThread, "turns">, format: ImportFormat, file: SourceFile): JsonObject {
  const importedFrom: ImportedFrom = {
    format,
    file: file.name,
    key: thread.key,
    identity: thread.identity ?? "source",
    sha256: file.sha256,
  };
  return {
    ...(thread.metadata ?? {}),
    ...(thread.relation ? { relation: thread.relation as unknown as JsonObject } : {}),
    importedFrom,
  };
}
