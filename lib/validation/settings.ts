import { z } from "zod";
import { decimalAmount, decimalInteger } from "./numbers";

/** USD per million tokens, as price lists give them. */
const pricePerMTok = decimalAmount(0, 10_000).optional();

export const customModelSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .regex(/^[\w.:/@-]+$/, "may hold letters, digits and . _ - : / @ only"),
    contextWindow: decimalInteger(1_000, 100_000_000),
    maxOutputTokens: decimalInteger(1).optional(),
    tokenizer: z.string().trim().min(1, "must not be empty"),
    /** Its list prices, to price its responses with: both or neither. */
    inputPricePerMTok: pricePerMTok,
    outputPricePerMTok: pricePerMTok,
  })
  .refine((m) => (m.inputPricePerMTok === undefined) === (m.outputPricePerMTok === undefined), {
    message: "give both prices or neither",
    path: ["outputPricePerMTok"],
  });
export type CustomModelInput = z.output<typeof customModelSchema>;

export const customModelRefSchema = z.strictObject({ name: customModelSchema.shape.name });
