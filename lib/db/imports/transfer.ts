import { redactDeep, searchableText } from "@/lib/domain/secrets/detect";
import { currentImportOwner, newThreadColumns } from "./import-owner";
import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import {
  parentsFirst,
  serializeNativeDocument,
  toNativeDocument,
  type NativeDocument,
  type NativeThread,
} from "@/lib/domain/transfer/native-format";
import { findParentCycle } from "@/lib/domain/threads/chain";
import { estimateTokens } from "@/lib/domain/tokens/tokens";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { inChunks } from "../engine/chunks";
import { insertTurnsInBulk, type BulkTurn } from "../threads/bulk-turns";
import { db } from "../engine/client";
import { databaseKind } from "../engine/create-client";
import { lockForWrite } from "../engine/dialect";
import type { Prisma } from "../generated/client";
import { jsonOrNull, mergeModels } from "../engine/mappers";
import { getChain, getThreadWithTurns } from "../threads/threads";
import { threadsWritten } from "../threads/thread-writes";
import { WRITE_TRANSACTION } from "../engine/transactions";

/** The export document of a thread, or of its whole chain (oldest first), as exact bytes. */
/** `redact`: every secret found in the text is replaced by `[REDACTED:<kind>:<fingerprint>]` (the default export is lossless: a backup). */
export async function exportThread(
  id: string,
  options: { chain?: boolean; includeExpired?: boolean; redact?: boolean } = {},
): Promise<string> {
  const visibility = { includeExpired: options.includeExpired ?? false };
  const threads = options.chain ? await getChain(id, visibility) : [await getThreadWithTurns(id, visibility)];
  const document = toNativeDocument(threads);
  return serializeNativeDocument(options.redact ? redactDeep(document) : document);
}

export type ImportMode = "strict" | "copy";
export type ImportResult = { threadIds: string[]; turnCount: number; warnings: string[] };

/**
 * Imports native documents in one transaction: all or nothing. In "strict" mode ids are kept and
 * an id that already exists is a conflict; in "copy" mode every thread and turn gets a new id
 * (parent links inside the documents follow). Imports are archives: the turn limit does not apply.
 */
export async function importDocuments(documents: NativeDocument[], mode: ImportMode = "strict"): Promise<ImportResult> {
  const owner = await currentImportOwner();
  const all = documents.flatMap((doc) => doc.threads);
  const seen = new Set<string>();
  for (const thread of all) {
    if (seen.has(thread.id)) {
      throw new AppError("validation_failed", `Thread ${thread.id} appears in more than one document`, [
        { field: "threads.id", message: `${thread.id} appears in more than one document` },
      ]);
    }
    seen.add(thread.id);
  }
  // Within one document the schema refuses a repeated turn id; across documents it is caught here,
  // before the transaction (the unique index would otherwise fail the insert with a 500).
  const seenTurnIds = new Set<string>();
  documents.forEach((doc, d) =>
    doc.threads.forEach((thread, t) =>
      thread.turns.forEach((turn, i) => {
        if (seenTurnIds.has(turn.id)) {
          const field = `[${d}].threads[${t}].turns[${i}].id`;
          throw new AppError("validation_failed", `${field}: turn ${turn.id} appears in more than one document`, [
            { field, message: `turn ${turn.id} appears in more than one document` },
          ]);
        }
        seenTurnIds.add(turn.id);
      }),
    ),
  );
  // Where each thread of `all` came from, to name its fields: documents[d].threads[t].
  const positions = documents.flatMap((doc, d) =>
    doc.threads.map((_, t) => (documents.length > 1 ? `[${d}].threads[${t}]` : `threads[${t}]`)),
  );
  const threads = mode === "copy" ? withNewIds(all) : all;
  const client = await db();
  const warnings: string[] = [];
  // Real per-turn counts, stored with the turns; measured before the write lock is taken.
  const allTurns = threads.flatMap((t) => t.turns);
  const measured = await countTexts(
    DEFAULT_TOKENIZER_ID,
    allTurns.map((turn) => turn.content),
  );
  const realTokens = new Map(allTurns.map((turn, i) => [turn.id, measured[i]!]));

  const result = await client.$transaction(async (tx) => {
    await lockForWrite(tx, databaseKind(client)); // the checks below read before the inserts write
    if (mode === "strict") {
      const threadIds = threads.map((t) => t.id);
      const turnIds = threads.flatMap((t) => t.turns.map((turn) => turn.id));
      const existingThreads = await inChunks(threadIds, (ids) => tx.thread.findMany({ where: { id: { in: ids } }, select: { id: true } }));
      const existingTurns = (
        await inChunks(turnIds, (ids) => tx.turn.findMany({ where: { id: { in: ids } }, select: { id: true } }))
      ).slice(0, 10);
      if (existingThreads.length > 0 || existingTurns.length > 0) {
        const ids = existingThreads.map((t) => t.id);
        throw new AppError(
          "conflict",
          ids.length > 0
            ? `${ids.length} thread(s) already exist: ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", ..." : ""}. Import with ?mode=copy to add them under new ids.`
            : `Turn id(s) already exist: ${existingTurns.map((t) => t.id).join(", ")}. Import with ?mode=copy to add them under new ids.`,
          { existingThreadIds: ids, existingTurnIds: existingTurns.map((t) => t.id) },
        );
      }
    }
    // Copies get new ids that no stored thread can name, so only strict imports can close a loop
    // through the database; the document's own links are the same in both modes.
    await refuseParentCycles(all, positions, mode === "strict" ? tx : null);
    const importedIds = new Set(threads.map((t) => t.id));
    const outsideParents = [
      ...new Set(threads.flatMap((t) => (t.parentThreadId && !importedIds.has(t.parentThreadId) ? [t.parentThreadId] : []))),
    ];
    if (outsideParents.length > 0) {
      const found = await inChunks(outsideParents, (ids) => tx.thread.findMany({ where: { id: { in: ids } }, select: { id: true } }));
      const present = new Set(found.map((t) => t.id));
      for (const parentId of outsideParents) {
        if (!present.has(parentId))
          warnings.push(`Parent thread ${parentId} is not in this database; the link is kept and the chain stops there.`);
      }
    }
    let turnCount = 0;
    for (const thread of parentsFirst(threads)) {
      const tokens = thread.turns.map((turn) => estimateTokens(turn.content));
      await tx.thread.create({
        data: {
          id: thread.id,
          parentThreadId: thread.parentThreadId,
          title: thread.title,
          searchTitle: searchableText(thread.title),
          toolName: thread.toolName,
          source: thread.source,
          initialContext: JSON.stringify(thread.initialContext),
          metadata: jsonOrNull(thread.metadata),
          project: thread.project,
          createdAt: new Date(thread.createdAt),
          lastUpdatedAt: new Date(thread.lastUpdatedAt),
          expiresAt: thread.expiresAt ? new Date(thread.expiresAt) : null,
          ...newThreadColumns(owner, thread.project),
          turnCount: thread.turns.length,
          tokenEstimate: tokens.reduce((a, b) => a + b, 0),
          modelsUsed: JSON.stringify(
            mergeModels(
              [],
              thread.turns.map((t) => t.modelName),
            ),
          ),
        },
      });
      const bulk: BulkTurn[] = thread.turns.map((turn, index) => ({
        ...turn,
        timestamp: new Date(turn.timestamp),
        tokenEstimate: tokens[index] ?? 0,
        count: realTokens.get(turn.id) ?? { tokens: 0, estimated: false },
      }));
      await insertTurnsInBulk(tx, thread.id, bulk, DEFAULT_TOKENIZER_ID);
      turnCount += thread.turns.length;
    }
    return { threadIds: threads.map((t) => t.id), turnCount, warnings };
  }, WRITE_TRANSACTION);
  threadsWritten(result.threadIds);
  return result;
}

/** Stored threads a cycle check walks through at most; a longer walk counts as ending at a root. */
const MAX_STORED_WALK = 1_000;

/**
 * Refuses parent links that loop (a thread continuing itself, A -> B -> A): chain traversals stop
 * at a loop, but the chain page showed such threads twice. The walk follows links through the
 * document and, given `stored`, through existing threads: one stored with an imported id as its
 * parent (a child imported before) closes a loop when that import names the child as parent.
 */
async function refuseParentCycles(threads: NativeThread[], positions: string[], stored: Prisma.TransactionClient | null): Promise<void> {
  const inDocument = new Map(threads.map((t) => [t.id, t.parentThreadId]));
  // No stored thread names an imported one as its parent: then no loop can pass through stored ones.
  const storedChildren = stored
    ? await inChunks([...inDocument.keys()], (ids) =>
        stored.thread.findMany({ where: { parentThreadId: { in: ids } }, select: { id: true } }),
      )
    : [];
  let storedWalk = 0;
  const storedParents = new Map<string, string | null>();
  const cycle = await findParentCycle(inDocument.keys(), async (id) => {
    if (inDocument.has(id)) return inDocument.get(id) ?? null;
    if (!stored || storedChildren.length === 0 || storedWalk >= MAX_STORED_WALK) return null;
    if (!storedParents.has(id)) {
      storedWalk += 1;
      const row = await stored.thread.findUnique({ where: { id }, select: { parentThreadId: true } });
      storedParents.set(id, row?.parentThreadId ?? null);
    }
    return storedParents.get(id) ?? null;
  });
  if (!cycle) return;
  // Name the imported thread on the loop that comes last in the document: its link closes it.
  const index = Math.max(...cycle.map((id) => threads.findIndex((t) => t.id === id)));
  const thread = threads[index]!;
  const field = `${positions[index]}.parentThreadId`;
  const at = cycle.indexOf(thread.id);
  const loop = [...cycle.slice(at), ...cycle.slice(0, at)]; // starting at this thread
  const shown = loop.length > 6 ? [...loop.slice(0, 5), "..."] : loop;
  const message =
    loop.length === 1
      ? "must not be the thread's own id"
      : `makes the parent links loop: ${[...shown, thread.id].join(" -> ")} (each continues the next)`;
  throw new AppError("validation_failed", `${field}: ${message}`, [{ field, message }]);
}

function withNewIds(threads: NativeThread[]): NativeThread[] {
  const newIds = new Map(threads.map((t) => [t.id, randomUUID()]));
  return threads.map((thread) => ({
    ...thread,
    id: newIds.get(thread.id) ?? randomUUID(),
    parentThreadId: thread.parentThreadId ? (newIds.get(thread.parentThreadId) ?? thread.parentThreadId) : null,
    turns: thread.turns.map((turn) => ({ ...turn, id: randomUUID() })),
  }));
}
