import { checksumOf, COPIED_TABLES } from "@/lib/db/engine/copy";
import type { Database } from "@/lib/db/engine/create-client";

/** Every table's row count and checksum, as db:copy verifies them. */
export async function tableChecksums(client: Database, batchSize = 2_000): Promise<{ table: string; rows: number; checksum: string }[]> {
  const sums = [];
  for (const table of COPIED_TABLES) sums.push({ table: table.table, ...(await checksumOf(client, table, batchSize)) });
  return sums;
}
