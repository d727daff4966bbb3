import { z } from "zod";

/** USD per million tokens, as price lists give them. */
const pricePerMTok = z.coerce.number({ error: "must be a number" }).min(0, "must be at least 0").max(10_000, "must be at most 10000").optional();

export const customModelSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .regex(/^[\w.:/@-]+$/, "may hold letters, digits and . _ - : / @ only"),
    contextWindow: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1_000, "must be at least 1000").max(100_000_000, "must be at most 100000000"),
    maxOutputTokens: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").optional(),
    tokenizer: z.string().trim().min(1, "must not be empty"),
    /** Its list prices, to price its responses with: both or neither. */
    inputPricePerMTok: pricePerMTok,
    outputPricePerMTok: pricePerMTok,
  })
  .refine((m) => (m.inputPricePerMTok === undefined) === (m.outputPricePerMTok === undefined), { message: "give both prices or neither", path: ["outputPricePerMTok"] });
export type CustomModelInput = z.output<typeof customModelSchema>;

export const customModelRefSchema = z.strictObject({ name: customModelSchema.shape.name });
