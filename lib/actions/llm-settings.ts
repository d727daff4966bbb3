"use server";

import { revalidatePath } from "next/cache";
import { saveLlmSettings } from "@/lib/db/settings/llm-settings";
import { llmSettingsSchema } from "@/lib/validation/llm-settings";
import { adminOnly, defineFormAction } from "./define-action";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The fields a refused form keeps showing: everything but the API key. */
const shown = (form: FormData) => ({
  compactionModel: text(form, "compactionModel"),
  chatModel: text(form, "chatModel"),
  openaiCompatibleBaseUrl: text(form, "openaiCompatibleBaseUrl"),
});

/** Saves the "Models and providers" settings from the Settings form (useActionState). */
export const saveLlmSettingsAction = defineFormAction(
  "saving",
  {
    schema: llmSettingsSchema,
    read: (form) => ({
      ...shown(form),
      openaiCompatibleApiKey: text(form, "openaiCompatibleApiKey"),
      clearOpenaiCompatibleApiKey: form.get("clearOpenaiCompatibleApiKey") !== null,
    }),
    echo: shown,
  },
  async (input) => {
    await adminOnly("change the models and providers");
    await saveLlmSettings(input);
    revalidatePath("/settings");
    return { message: "Saved the model settings." };
  },
);
