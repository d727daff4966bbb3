import "server-only";
import { searchableTurnText } from "@/lib/domain/secrets/detect";
import type { TokenCount } from "@/lib/domain/tokens/tokenizer";
import type { Turn } from "@/lib/domain/types";
import { chunked, chunkedByWeight } from "../engine/chunks";
import type { Prisma } from "../generated/client";
import { compiledLength, COMPILED_CHARS_PER_STATEMENT, withLargeValues } from "../engine/large-values";
import { jsonOrNull, storedParts } from "../engine/mappers";

/** A turn written in bulk into a new thread, at the index of its place in the list. */
export type BulkTurn = Pick<
  Turn,
  "id" | "role" | "content" | "files" | "images" | "toolName" | "modelProvider" | "modelName" | "modelMetadata" | "fileSnapshots"
> & {
  timestamp: Date;
  parts: Parameters<typeof storedParts>[0];
  tokenEstimate: number;
  /** Its content's count under `tokenizer`, stored with it as appends store theirs. */
  count: TokenCount;
};

/**
 * Writes a new thread's turns with their counts and file snapshots inside `tx`, in a few
 * statements (a 2,000-turn thread is not thousands). Long texts reach the driver beside Prisma's
 * query compiler, and each statement hands it a bounded amount of the rest (lib/db/engine/large-values.ts).
 */
export async function insertTurnsInBulk(
  tx: Prisma.TransactionClient,
  threadId: string,
  turns: BulkTurn[],
  tokenizer: string,
): Promise<void> {
  if (turns.length === 0) return;
  await withLargeValues(async (large) => {
    const rows = turns.map((turn, index) => ({
      id: turn.id,
      threadId,
      index,
      role: turn.role,
      content: large(turn.content),
      searchContent: large(searchableTurnText(turn.content, turn.parts)),
      timestamp: turn.timestamp,
      files: JSON.stringify(turn.files),
      images: JSON.stringify(turn.images),
      toolName: turn.toolName,
      modelProvider: turn.modelProvider,
      modelName: turn.modelName,
      modelMetadata: jsonOrNull(turn.modelMetadata),
      parts: large(storedParts(turn.parts, turn.content)),
      tokenEstimate: turn.tokenEstimate,
    }));
    const rowWeight = (row: (typeof rows)[number]) =>
      compiledLength(row.content) + compiledLength(row.searchContent) + compiledLength(row.parts) + (row.modelMetadata?.length ?? 0) + 200;
    for (const chunk of chunkedByWeight(rows, 500, COMPILED_CHARS_PER_STATEMENT, rowWeight)) await tx.turn.createMany({ data: chunk });
    const seqs = await tx.turn.findMany({ where: { threadId }, orderBy: { index: "asc" }, select: { seq: true } });
    const counts = seqs.map(({ seq }, index) => ({ turnSeq: seq, threadId, tokenizer, ...turns[index]!.count }));
    for (const chunk of chunked(counts, 1_000)) await tx.turnTokenCount.createMany({ data: chunk });
    const snapshots = turns.flatMap((turn, index) =>
      turn.fileSnapshots.map((snapshot, position) => ({
        turnSeq: seqs[index]!.seq,
        position,
        path: snapshot.path,
        content: large(snapshot.content),
      })),
    );
    for (const chunk of chunkedByWeight(snapshots, 500, COMPILED_CHARS_PER_STATEMENT, (row) => compiledLength(row.content) + 100)) {
      await tx.fileSnapshot.createMany({ data: chunk });
    }
  });
}
