import { z } from "zod";
import { formatModelSpec, modelSpecSchema } from "@/lib/domain/compaction/model-spec";

/**
 * The "Models and providers" settings form. A blank model or base URL removes the saved value
 * (the environment applies again); a blank API key keeps the saved one, `clearOpenaiCompatibleApiKey`
 * removes it. Messages never quote the key.
 */
const blankToNull = (value: string) => (value.trim() === "" ? null : value.trim());

const baseUrlSchema = z
  .string()
  .max(2_000, "must be at most 2000 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, 'must be an http(s) URL, e.g. "http://127.0.0.1:11434/v1"')
  .refine(
    (value) => !URL.canParse(value) || (!new URL(value).username && !new URL(value).password),
    "must not hold credentials; put the key in the API key field",
  )
  .transform((value) => value.replace(/\/+$/, ""));

/** A default model: "<provider>:<model>" normalised, or null (blank) to remove the saved one. */
const defaultModelSchema = z.string().default("").transform(blankToNull).pipe(modelSpecSchema.transform(formatModelSpec).nullable());

export const llmSettingsSchema = z
  .strictObject({
    compactionModel: defaultModelSchema,
    chatModel: defaultModelSchema,
    openaiCompatibleBaseUrl: z.string().default("").transform(blankToNull).pipe(baseUrlSchema.nullable()),
    openaiCompatibleApiKey: z
      .string()
      .default("")
      .transform((value) => value.trim())
      .pipe(z.string().max(1_000, "must be at most 1000 characters").regex(/^\S*$/, "must not contain spaces")),
    clearOpenaiCompatibleApiKey: z.boolean().default(false),
  })
  .superRefine((value, ctx) => {
    if (value.clearOpenaiCompatibleApiKey && value.openaiCompatibleApiKey !== "") {
      ctx.addIssue({ code: "custom", path: ["openaiCompatibleApiKey"], message: "enter a new key or remove the saved one, not both" });
    }
  })
  .transform((value) => ({
    compactionModel: value.compactionModel,
    chatModel: value.chatModel,
    openaiCompatibleBaseUrl: value.openaiCompatibleBaseUrl,
    // undefined keeps the saved key; null removes it.
    openaiCompatibleApiKey: value.clearOpenaiCompatibleApiKey ? null : value.openaiCompatibleApiKey || undefined,
  }));
