import { z } from "zod";

export const customModelSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .regex(/^[\w.:/@-]+$/, "may hold letters, digits and . _ - : / @ only"),
  contextWindow: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1_000, "must be at least 1000").max(100_000_000, "must be at most 100000000"),
  maxOutputTokens: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").optional(),
  tokenizer: z.string().trim().min(1, "must not be empty"),
});
export type CustomModelInput = z.output<typeof customModelSchema>;

export const customModelRefSchema = z.strictObject({ name: customModelSchema.shape.name });
