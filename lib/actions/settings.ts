"use server";

import { revalidatePath } from "next/cache";
import { addCustomModel, deleteCustomModel } from "@/lib/db/custom-models";
import { AppError } from "@/lib/domain/errors";
import { issuesOf } from "@/lib/domain/parse";
import { customModelSchema } from "@/lib/validation/settings";

export type SettingsFormState = { ok: boolean; message: string; fieldErrors?: Record<string, string> } | null;

/** Adds a custom model from the Settings form (useActionState). */
export async function addCustomModelAction(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  // Pick the form's own fields: React adds $ACTION_* entries that a strict schema would refuse.
  const fields = ["name", "contextWindow", "maxOutputTokens", "tokenizer"] as const;
  const raw = Object.fromEntries(fields.map((f) => [f, form.get(f)]).filter(([, v]) => typeof v === "string" && v !== ""));
  const parsed = customModelSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(issuesOf(parsed.error).map((i) => [i.field, i.message]));
    return { ok: false, message: "Check the highlighted fields.", fieldErrors };
  }
  try {
    const model = await addCustomModel(parsed.data);
    revalidatePath("/settings");
    return { ok: true, message: `Added ${model.displayName}.` };
  } catch (error) {
    if (error instanceof AppError) {
      const [field, ...rest] = error.message.split(": ");
      return { ok: false, message: error.message, fieldErrors: rest.length > 0 && field ? { [field]: rest.join(": ") } : undefined };
    }
    console.error("[threadline] adding a custom model failed", error);
    return { ok: false, message: "Saving failed; see the server log." };
  }
}

export async function deleteCustomModelAction(name: string): Promise<{ ok: boolean; message: string }> {
  try {
    await deleteCustomModel(name);
    revalidatePath("/settings");
    return { ok: true, message: `Removed ${name}.` };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    console.error("[threadline] removing a custom model failed", error);
    return { ok: false, message: "Removing failed; see the server log." };
  }
}
