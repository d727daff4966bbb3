"use server";

import { revalidatePath } from "next/cache";
import { forkThread } from "@/lib/db/threads/forks";
import { forkActionSchema } from "@/lib/validation/forks";
import { refuseViewer } from "@/lib/auth/thread-access";
import { defineAction } from "./define-action";

/** Forks a thread at a turn from the UI (a turn's menu); answers the fork's id. */
export const forkThreadAction = defineAction("fork", forkActionSchema, async ({ threadId, request }, reader) => {
  refuseViewer(reader);
  const { thread } = await forkThread(threadId, request.atTurn, reader);
  revalidatePath("/threads");
  revalidatePath(`/threads/${threadId}`, "layout");
  return { forkThreadId: thread.id };
});
