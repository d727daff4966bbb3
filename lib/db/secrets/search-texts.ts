import "server-only";
import { searchableText, searchableTurnText } from "@/lib/domain/secrets/detect";
import { db } from "../engine/client";
import { hiddenSearchTitles, hiddenSearchTurns } from "./dialect-secrets";
import { withLargeValues } from "../engine/large-values";
import { partsFromStored } from "../engine/mappers";
import { WRITE_TRANSACTION } from "../engine/transactions";

/**
 * Search reads a masked copy of a turn's content or a thread's title that holds a secret
 * (Turn.searchContent, Thread.searchTitle; null when it holds none), so no query can match inside
 * a secret. Every write stores the copy with its text. The scan for secrets (lib/secrets/scan.ts)
 * fills it in afterwards in two cases: what was stored before the copies existed (hidden from
 * search by the migration until then), and a turn it finds a secret in whose copy is missing,
 * should a write ever leave it out.
 */

/** Set by the migration that added the copies when it hid anything; removed once every hidden text has its copy. */
const HIDDEN_KEY = "search.hiddenUntilMasked";
const BATCH = 500;

/** Writes the copies of what the migration hid from search, if anything still is; answers how many texts were read. */
export async function revealHiddenSearchTexts(pause: () => Promise<void>): Promise<number> {
  const client = await db();
  if (!(await client.appSetting.findUnique({ where: { key: HIDDEN_KEY } }))) return 0;
  let read = 0;
  for (let after = 0; ;) {
    const turns = await hiddenSearchTurns(client, after, BATCH);
    if (turns.length === 0) break;
    const copies = turns.map((turn) => ({
      seq: turn.seq,
      copy: searchableTurnText(turn.content, partsFromStored(turn.parts, turn.content)),
    }));
    await withLargeValues((large) =>
      client.$transaction(async (tx) => {
        const plain = copies.filter((c) => c.copy === null).map((c) => c.seq);
        // Conditional: a write since (a redaction) has stored its own copy.
        if (plain.length > 0) await tx.turn.updateMany({ where: { seq: { in: plain }, searchContent: "" }, data: { searchContent: null } });
        for (const { seq, copy } of copies)
          if (copy !== null) await tx.turn.updateMany({ where: { seq, searchContent: "" }, data: { searchContent: large(copy) } });
      }, WRITE_TRANSACTION),
    );
    [after, read] = [turns.at(-1)!.seq, read + turns.length];
    await pause();
  }
  for (let after = ""; ;) {
    const threads = await hiddenSearchTitles(client, after, BATCH);
    if (threads.length === 0) break;
    await client.$transaction(async (tx) => {
      for (const { id, title } of threads)
        await tx.thread.updateMany({ where: { id, searchTitle: "" }, data: { searchTitle: searchableText(title) } });
    }, WRITE_TRANSACTION);
    [after, read] = [threads.at(-1)!.id, read + threads.length];
    await pause();
  }
  await client.appSetting.deleteMany({ where: { key: HIDDEN_KEY } });
  return read;
}

/**
 * Stores the masked copy of turns the scan found a secret in (content or parts) while search read
 * them as they are (a write that left the copy out). Only where the content is still what the scan read.
 */
export async function maskForSearch(turns: { seq: number; content: string; parts: string | null }[]): Promise<void> {
  if (turns.length === 0) return;
  const client = await db();
  await withLargeValues((large) =>
    client.$transaction(async (tx) => {
      for (const { seq, content, parts } of turns) {
        const copy = searchableTurnText(content, partsFromStored(parts, content));
        if (copy !== null)
          await tx.turn.updateMany({ where: { seq, searchContent: null, content: large(content) }, data: { searchContent: large(copy) } });
      }
    }, WRITE_TRANSACTION),
  );
}
