"use server";

import { revalidatePath } from "next/cache";
import { saveLlmSettings } from "@/lib/db/llm-settings";
import { issuesOf } from "@/lib/domain/parse";
import { llmSettingsSchema } from "@/lib/validation/llm-settings";

/** `values` echoes the fields that are not secret, so a refused form keeps what was typed. */
export type LlmSettingsFormState = {
  ok: boolean;
  message: string;
  fieldErrors?: Record<string, string>;
  values?: { compactionModel: string; chatModel: string; openaiCompatibleBaseUrl: string };
} | null;

/** Saves the "Models and providers" settings from the Settings form (useActionState). */
export async function saveLlmSettingsAction(_previous: LlmSettingsFormState, form: FormData): Promise<LlmSettingsFormState> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const values = {
    compactionModel: text("compactionModel"),
    chatModel: text("chatModel"),
    openaiCompatibleBaseUrl: text("openaiCompatibleBaseUrl"),
  };
  const parsed = llmSettingsSchema.safeParse({
    ...values,
    openaiCompatibleApiKey: text("openaiCompatibleApiKey"),
    clearOpenaiCompatibleApiKey: form.get("clearOpenaiCompatibleApiKey") !== null,
  });
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(issuesOf(parsed.error).map((i) => [i.field, i.message]));
    return { ok: false, message: "Check the highlighted fields.", fieldErrors, values };
  }
  try {
    await saveLlmSettings(parsed.data);
  } catch (error) {
    // The error is Prisma's; it may quote the statement's values, so only its name is logged.
    console.error("[threadline] saving the model settings failed:", error instanceof Error ? error.name : typeof error);
    return { ok: false, message: "Saving failed; see the server log.", values };
  }
  revalidatePath("/settings");
  return { ok: true, message: "Saved the model settings." };
}
