"use server";

import { revalidatePath } from "next/cache";
import { addCustomModel, deleteCustomModel } from "@/lib/db/settings/custom-models";
import { customModelRefSchema, customModelSchema } from "@/lib/validation/settings";
import { adminOnly, defineAction, defineFormAction } from "./define-action";

const FIELDS = ["name", "contextWindow", "maxOutputTokens", "tokenizer", "inputPricePerMTok", "outputPricePerMTok"] as const;

/** Adds a custom model from the Settings form (useActionState). */
export const addCustomModelAction = defineFormAction(
  "saving",
  {
    schema: customModelSchema,
    read: (form) => Object.fromEntries(FIELDS.map((f) => [f, form.get(f)]).filter(([, v]) => typeof v === "string" && v !== "")),
  },
  async (input) => {
    await adminOnly("add custom models");
    const model = await addCustomModel(input);
    revalidatePath("/settings");
    return { message: `Added ${model.displayName}.` };
  },
);

export const deleteCustomModelAction = defineAction("removing", customModelRefSchema, async ({ name }) => {
  await adminOnly("remove custom models");
  await deleteCustomModel(name);
  revalidatePath("/settings");
  return { message: `Removed ${name}.` };
});
