import "server-only";
import type { BackgroundCounter } from "@/lib/tokenizers/background-counter";
import type { ImportWriter, TokenCountRow, TurnInsertRow } from "./import-rows";

const INSERT_BATCH = 500;
/** A batch also ends at this much text, so a run of huge tool results never sits in memory together. */
const INSERT_BATCH_CHARS = 1_000_000;
/** Batches whose token counts may be pending at once: enough to keep the counting core busy. */
const COUNTING_AHEAD = 8;

/** A batch's counts on their way from the counting core: `rows` once they are in. */
type Counting = { promise: Promise<TokenCountRow[]>; rows: TokenCountRow[] | null };

/**
 * Turns on their way to the database: written in batches while the other core counts the last
 * ones. Without a counter (an import in a bulk run) they are written uncounted: the backlog counts
 * them once the run has ended (lib/db/threads/count-backlog.ts).
 */
export class TurnBatches {
  private rows: TurnInsertRow[] = [];
  private chars = 0;
  /** Batches written whose counts the other core is still working out, oldest first. */
  private readonly counting: Counting[] = [];

  constructor(
    private readonly writer: ImportWriter,
    private readonly counter: BackgroundCounter | null,
  ) {}

  async add(row: TurnInsertRow): Promise<void> {
    this.rows.push(row);
    this.chars += row.content.length + (row.parts?.length ?? 0);
    if (this.rows.length >= INSERT_BATCH || this.chars >= INSERT_BATCH_CHARS) await this.flush();
  }

  /** Writes what is batched and waits for every count: before turns are deleted, and at the end. */
  async settle(): Promise<void> {
    await this.flush();
    while (this.counting.length > 0) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    this.counter?.send(); // a small batch may be waiting for company
    await this.writer.insertTokenCounts(await this.counting.shift()!.promise);
  }

  private async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    this.chars = 0;
    const seqs = await this.writer.insertTurns(rows);
    if (!this.counter) return;
    const { tokenizer } = this.counter;
    const batch: Counting = { promise: Promise.resolve([]), rows: null };
    batch.promise = this.counter.count(rows.map((row) => row.content)).then((counts) => {
      batch.rows = rows.map((row, i) => ({ turnSeq: seqs[i]!, turnId: row.id, threadId: row.threadId, tokenizer, ...counts[i]! }));
      return batch.rows;
    });
    // Awaited by settle; when the import fails first, it is never written.
    batch.promise.catch(() => {});
    this.counting.push(batch);
    while (this.counting.length >= COUNTING_AHEAD) await this.writeOldest();
  }
}
