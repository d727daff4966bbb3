"use server";

import { revalidatePath } from "next/cache";
import { forkThread } from "@/lib/db/threads/forks";
import { forkActionSchema } from "@/lib/validation/forks";
import { defineAction } from "./define-action";

/** Forks a thread at a turn from the UI (a turn's menu); answers the fork's id. */
export const forkThreadAction = defineAction("fork", forkActionSchema, async ({ threadId, request }) => {
  const { thread } = await forkThread(threadId, request.atTurn);
  revalidatePath("/threads");
  revalidatePath(`/threads/${threadId}`, "layout");
  return { forkThreadId: thread.id };
});
