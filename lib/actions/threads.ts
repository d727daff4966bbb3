"use server";

import { revalidatePath } from "next/cache";
import { purgeThread } from "@/lib/db/threads/threads";
import { threadRefSchema } from "@/lib/validation/threads";
import { requireManageableThread } from "@/lib/auth/thread-access";
import { defineAction } from "./define-action";

/** Purges a thread from the UI (the only way anything is deleted). */
export const purgeThreadAction = defineAction("purge", threadRefSchema, async ({ threadId }, reader) => {
  await requireManageableThread(reader, threadId);
  await purgeThread(threadId);
  revalidatePath("/threads");
});
