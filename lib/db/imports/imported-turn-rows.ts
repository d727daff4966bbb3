import { turnSearchAndSecrets } from "@/lib/domain/secrets/detect";
import { isRealPrompt } from "@/lib/domain/threads/title";
import { estimateTokens } from "@/lib/domain/tokens/tokens";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { importedThreadId, importedTurnId } from "@/lib/importers/stable-id";
import type { ImportedThread, ImportedTurn, ImportFormat, ThreadTurn } from "@/lib/importers/types";
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

/**
 * A turn made ready to store: its row, and what its thread's row takes from it. Made where the
 * source is parsed (the parse worker, lib/imports/parse-worker.ts, or the importing thread), so
 * the thread that writes only writes.
 */
export type PreparedTurn = {
  row: TurnInsertRow;
  /** The turn's text when it is a real user prompt (the title when the source gives none). */
  userText: string | null;
  /** The sub-agents its tool results name: [agentId, tool call id]. */
  agentCalls: [string, string][];
};

/** A prepared turn of the outline's thread `threadIndex`, as a stream carries it. */
export type PreparedThreadTurn = { threadIndex: number; prepared: PreparedTurn };

/** Where a thread stands when its next turn is prepared: turns taken, and the first one's time. */
type TurnPosition = { index: number; firstTime: number | null };

/** A turn's row at `position` in its thread; `createdAt` (the thread's) and `now` stand in for a turn without a time. */
export function prepareTurn(
  turn: ImportedTurn,
  threadId: string,
  position: TurnPosition,
  createdAt: string | null | undefined,
  now: Date,
): PreparedTurn {
  const fallback = position.firstTime ?? (createdAt ? Date.parse(createdAt) : now.getTime());
  const row = toTurnRow(turn, threadId, position.index, new Date(Number.isFinite(fallback) ? fallback : now.getTime()));
  const agentCalls: [string, string][] = [];
  for (const part of turn.parts ?? [])
    if (part.type === "tool_result" && typeof part.agentId === "string") agentCalls.push([part.agentId, part.toolCallId]);
  const userText = turn.role === "user" && isRealPrompt(turn.content) ? turn.content : null;
  return { row, userText, agentCalls };
}

/**
 * Prepares a whole source's turns in order, keeping each thread's position as the import that
 * stores them from the start does (turn-stream-import.ts): the rows are the ones it would make.
 */
export class TurnPreparer {
  private readonly positions = new Map<number, TurnPosition>();
  private readonly now = new Date();

  constructor(
    private readonly format: ImportFormat,
    private readonly threads: readonly Pick<ImportedThread, "key" | "createdAt">[],
  ) {}

  prepare({ threadIndex, turn }: ThreadTurn): PreparedThreadTurn {
    const header = this.threads[threadIndex];
    if (!header) throw new Error(`turn for thread ${threadIndex}, which the outline does not have`);
    let position = this.positions.get(threadIndex);
    if (!position) this.positions.set(threadIndex, (position = { index: 0, firstTime: null }));
    const prepared = prepareTurn(turn, importedThreadId(this.format, header.key), position, header.createdAt, this.now);
    position.index += 1;
    position.firstTime ??= prepared.row.timestamp.getTime();
    return { threadIndex, prepared };
  }
}

function toTurnRow(turn: ImportedTurn, threadId: string, index: number, fallbackTime: Date): TurnInsertRow {
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
    searchContent: null,
    timestamp: Number.isNaN(time.getTime()) ? fallbackTime : time,
    files: JSON.stringify(turn.files ?? []),
    images: JSON.stringify(turn.images ?? []),
    toolName: turn.toolName ?? null,
    modelProvider: turn.modelProvider ?? null,
    modelName: turn.modelName ?? null,
    modelMetadata: Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null,
    parts: parts.length > 0 ? storedParts(parts, turn.content) : null,
    tokenEstimate: estimateTokens(turn.content),
    secrets: [],
  };
  ({ searchContent: row.searchContent, secrets: row.secrets } = turnSearchAndSecrets(turn.content, parts, row.parts));
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
