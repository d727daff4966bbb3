"use server";

import { revalidatePath } from "next/cache";
import { forkThread } from "@/lib/db/forks";
import { AppError } from "@/lib/domain/errors";
import { normalizeId } from "@/lib/domain/ids";

export type ForkResult = { ok: true; forkThreadId: string } | { ok: false; message: string };

/** Forks a thread at a turn from the UI (a turn's menu). */
export async function forkThreadAction(threadId: string, atTurn: number): Promise<ForkResult> {
  const id = normalizeId(threadId);
  if (!id) return { ok: false, message: "Not a thread id" };
  if (!Number.isSafeInteger(atTurn) || atTurn < 0) return { ok: false, message: "Not a turn index" };
  try {
    const { thread } = await forkThread(id, atTurn);
    revalidatePath("/threads");
    revalidatePath(`/threads/${id}`, "layout");
    return { ok: true, forkThreadId: thread.id };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    console.error("[threadline] fork failed", error);
    return { ok: false, message: "Forking failed; see the server log." };
  }
}
