"use server";

import { revalidatePath } from "next/cache";
import { compactionLinks } from "@/lib/db/threads/compactions";
import { purgeThread } from "@/lib/db/threads/threads";
import { AppError } from "@/lib/domain/errors";
import { threadRefSchema } from "@/lib/validation/threads";
import { requireManageableThread } from "@/lib/auth/thread-access";
import { defineAction } from "./define-action";

/** Undoes a compaction: deletes the revision (the original was never changed) and names the original. */
export const undoCompactionAction = defineAction("undo", threadRefSchema, async ({ threadId }, reader) => {
  await requireManageableThread(reader, threadId);
  const { compactedFrom } = await compactionLinks(threadId, reader);
  if (!compactedFrom) throw new AppError("conflict", "This thread is not a compacted revision.");
  await purgeThread(threadId);
  revalidatePath("/threads");
  revalidatePath(`/threads/${compactedFrom.originalThreadId}`, "layout");
  return { originalThreadId: compactedFrom.originalThreadId };
});
