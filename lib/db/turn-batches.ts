import "server-only";
import type { BackgroundCounter } from "@/lib/tokenizers/background-counter";
import type { ImportWriter, TurnInsertRow } from "./import-rows";

const INSERT_BATCH = 500;
/** A batch also ends at this much text, so a run of huge tool results never sits in memory together. */
const INSERT_BATCH_CHARS = 1_000_000;
/** Batches whose token counts may be pending at once: enough to keep the counting core busy. */
const COUNTING_AHEAD = 8;

/** Turns on their way to the database: written in batches while the other core counts the last ones. */
export class TurnBatches {
  private rows: TurnInsertRow[] = [];
  private chars = 0;
  /** Batches written whose counts the other core is still working out, oldest first. */
  private readonly counting: Promise<void>[] = [];

  constructor(
    private readonly writer: ImportWriter,
    private readonly counter: BackgroundCounter,
  ) {}

  async add(row: TurnInsertRow): Promise<void> {
    this.rows.push(row);
    this.chars += row.content.length + (row.parts?.length ?? 0);
    if (this.rows.length >= INSERT_BATCH || this.chars >= INSERT_BATCH_CHARS) await this.flush();
  }

  /** Writes what is batched and waits for every count: before turns are deleted, and at the end. */
  async settle(): Promise<void> {
    await this.flush();
    while (this.counting.length > 0) await this.counting.shift();
  }

  private async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    this.chars = 0;
    const seqs = await this.writer.insertTurns(rows);
    const counted = this.counter
      .count(rows.map((row) => row.content))
      .then((counts) => this.writer.insertTokenCounts(rows.map((row, i) => ({ turnSeq: seqs[i]!, threadId: row.threadId, tokenizer: this.counter.tokenizer, ...counts[i]! }))));
    // Awaited by settle; when the import fails first, it ends against a closed connection, unheard.
    counted.catch(() => {});
    this.counting.push(counted);
    while (this.counting.length >= COUNTING_AHEAD) await this.counting.shift();
  }
}
