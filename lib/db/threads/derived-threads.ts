import "server-only";
import { randomUUID } from "node:crypto";
import { expiresAtFor } from "@/lib/domain/threads/expiry";
import { searchableText } from "@/lib/domain/secrets/detect";
import type { TokenCount } from "@/lib/domain/tokens/tokenizer";
import { estimateTokens } from "@/lib/domain/tokens/tokens";
import type { JsonObject, ThreadWithTurns, Turn, TurnPart, TurnRole } from "@/lib/domain/types";
import { serverSettings } from "@/lib/env";
import { insertTurnsInBulk, type BulkTurn } from "./bulk-turns";
import type { Prisma, Thread as ThreadRow } from "../generated/client";
import { mergeModels } from "../engine/mappers";
import type { NewThreadOwner } from "../people/visibility";

/** A turn of a thread made from another: a copy of one of its turns (`source`), or a new one. */
type DerivedTurn = {
  source: Turn | null;
  role: TurnRole;
  content: string;
  parts: TurnPart[] | null;
  toolName: string | null;
  modelName: string | null;
  files: string[];
  images: string[];
  timestamp: string;
};

export type DerivedThread = {
  original: ThreadWithTurns;
  title: string;
  /** "compaction", "fork". */
  source: string;
  metadata: JsonObject;
  turns: DerivedTurn[];
  /** Each turn's count under `tokenizer`, stored with it as appends store theirs. */
  tokens: TokenCount[];
  tokenizer: string;
  /** Whose it is: a fork the forker's, a compacted revision its original's. */
  owner: NewThreadOwner;
};

/**
 * Writes a thread made from another (a compacted revision, a fork) inside `tx`: it takes the
 * original's place in its chain (same parent) with its tool, context and project, and copies turns
 * with their attribution and file snapshots, in bulk (a 2,000-turn thread is a few statements under
 * the write lock, not thousands). The original is not written.
 */
export async function insertDerivedThread(tx: Prisma.TransactionClient, input: DerivedThread): Promise<ThreadRow> {
  const { original, turns } = input;
  const now = new Date();
  const id = randomUUID();
  const thread = await tx.thread.create({
    data: {
      id,
      ...input.owner,
      parentThreadId: original.thread.parentThreadId,
      title: input.title.slice(0, 500),
      searchTitle: searchableText(input.title.slice(0, 500)),
      toolName: original.thread.toolName,
      initialContext: JSON.stringify(original.thread.initialContext),
      metadata: JSON.stringify(input.metadata),
      source: input.source,
      project: original.thread.project,
      createdAt: now,
      lastUpdatedAt: now,
      // Lives as long as threads like its original do: imported ones never expire.
      expiresAt: original.thread.expiresAt === null ? null : expiresAtFor(now, serverSettings().timeoutHours.value),
      turnCount: turns.length,
      tokenEstimate: turns.reduce((sum, turn) => sum + estimateTokens(turn.content), 0),
      modelsUsed: JSON.stringify(
        mergeModels(
          [],
          turns.map((t) => t.modelName),
        ),
      ),
    },
  });
  const bulk: BulkTurn[] = turns.map((turn, index) => ({
    id: randomUUID(),
    role: turn.role,
    content: turn.content,
    timestamp: new Date(turn.timestamp),
    files: turn.files,
    images: turn.images,
    toolName: turn.toolName,
    modelProvider: turn.source?.modelProvider ?? null,
    modelName: turn.modelName,
    modelMetadata: turn.source?.modelMetadata ?? null,
    parts: turn.parts,
    tokenEstimate: estimateTokens(turn.content),
    count: input.tokens[index] ?? { tokens: 0, estimated: false },
    fileSnapshots: turn.source?.fileSnapshots ?? [],
  }));
  await insertTurnsInBulk(tx, id, bulk, input.tokenizer);
  return thread;
}
