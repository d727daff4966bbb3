"use server";

import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/domain/errors";
import { normalizeId } from "@/lib/domain/ids";
import { purgeThread } from "@/lib/db/threads";

export type ActionResult = { ok: true } | { ok: false; message: string };

/** Purges a thread from the UI (the only way anything is deleted). */
export async function purgeThreadAction(threadId: string): Promise<ActionResult> {
  const id = normalizeId(threadId);
  if (!id) return { ok: false, message: "Not a thread id" };
  try {
    await purgeThread(id);
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    console.error("[threadline] purge failed", error);
    return { ok: false, message: "Purge failed; see the server log." };
  }
  revalidatePath("/threads");
  return { ok: true };
}
