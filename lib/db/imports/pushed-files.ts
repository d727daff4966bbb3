import "server-only";
import { db } from "../engine/client";
import { WRITE_TRANSACTION } from "../engine/transactions";

/** What the server holds of one pushed file (prisma/schema.prisma PushedFile). */
export type PushedFileRow = {
  path: string;
  offset: number;
  stored: number;
  sha256: string;
  failure: string | null;
};

const COLUMNS = { path: true, offset: true, stored: true, sha256: true, failure: true } as const;

/** Every file one person pushed from one machine. */
export async function pushedFilesOf(userId: string, machine: string): Promise<PushedFileRow[]> {
  return (await db()).pushedFile.findMany({ where: { userId, machine }, select: COLUMNS, orderBy: { path: "asc" } });
}

/** The files among `paths` that one person pushed from one machine. */
export async function pushedFilesAt(userId: string, machine: string, paths: string[]): Promise<Map<string, PushedFileRow>> {
  const rows = await (await db()).pushedFile.findMany({ where: { userId, machine, path: { in: paths } }, select: COLUMNS });
  return new Map(rows.map((row) => [row.path, row]));
}

/** Records what the server now holds of these files, all at once: a push acknowledged. */
export async function savePushedFiles(userId: string, machine: string, rows: PushedFileRow[]): Promise<void> {
  if (rows.length === 0) return;
  const client = await db();
  const updatedAt = new Date();
  await client.$transaction(async (tx) => {
    for (const row of rows)
      await tx.pushedFile.upsert({
        where: { userId_machine_path: { userId, machine, path: row.path } },
        create: { userId, machine, ...row, updatedAt },
        update: { ...row, updatedAt },
      });
  }, WRITE_TRANSACTION);
}
