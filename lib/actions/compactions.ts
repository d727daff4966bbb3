"use server";

import { revalidatePath } from "next/cache";
import { compactionLinks } from "@/lib/db/compactions";
import { purgeThread } from "@/lib/db/threads";
import { AppError } from "@/lib/domain/errors";
import { normalizeId } from "@/lib/domain/ids";

export type UndoResult = { ok: true; originalThreadId: string } | { ok: false; message: string };

/** Undoes a compaction: deletes the revision (the original was never changed) and names the original. */
export async function undoCompactionAction(revisionThreadId: string): Promise<UndoResult> {
  const id = normalizeId(revisionThreadId);
  if (!id) return { ok: false, message: "Not a thread id" };
  try {
    const { compactedFrom } = await compactionLinks(id);
    if (!compactedFrom) return { ok: false, message: "This thread is not a compacted revision." };
    await purgeThread(id);
    revalidatePath("/threads");
    revalidatePath(`/threads/${compactedFrom.originalThreadId}`, "layout");
    return { ok: true, originalThreadId: compactedFrom.originalThreadId };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    console.error("[threadline] undoing a compaction failed", error);
    return { ok: false, message: "Undo failed; see the server log." };
  }
}
