import "server-only";
import { AppError } from "@/lib/domain/errors";
import type { ModelInfo } from "@/lib/models/catalog";
import { getTokenizer, hasTokenizer, listTokenizers } from "@/lib/tokenizers/registry";
import type { CustomModelInput } from "@/lib/validation/settings";
import { db } from "../engine/client";
import { customModelRows } from "../engine/dialect";
import type { CustomModel as CustomModelRow } from "../generated/client";
import { quoteInput } from "@/lib/domain/secrets/quote";

function toModelInfo(row: CustomModelRow): ModelInfo {
  const tokenizer = getTokenizer(row.tokenizer);
  return {
    id: row.id,
    provider: "custom",
    displayName: row.displayName,
    contextWindow: row.contextWindow,
    // Without a stated maximum, PAL's split applies: the response share is what it may use.
    maxOutputTokens: row.maxOutputTokens ?? Math.floor(row.contextWindow * 0.4),
    tokenizer: tokenizer.id,
    exactTokenizer: tokenizer.exact,
    inputPricePerMTok: row.inputPricePerMTok ?? null,
    outputPricePerMTok: row.outputPricePerMTok ?? null,
    source: "custom",
  };
}

export async function listCustomModels(): Promise<ModelInfo[]> {
  return (await customModelRows(await db())).map(toModelInfo);
}

export async function addCustomModel(input: CustomModelInput): Promise<ModelInfo> {
  const client = await db();
  const id = input.name.toLowerCase();
  if (!hasTokenizer(input.tokenizer)) {
    const known = listTokenizers()
      .map((t) => t.id)
      .join(", ");
    throw new AppError("validation_failed", `tokenizer: unknown tokenizer ${quoteInput(input.tokenizer)}; use one of ${known}`, [
      { field: "tokenizer", message: `unknown tokenizer ${quoteInput(input.tokenizer)}` },
    ]);
  }
  return client.$transaction(async (tx) => {
    if (await tx.customModel.findUnique({ where: { id } })) {
      throw new AppError("conflict", `name: a custom model named ${quoteInput(input.name)} exists already`, [
        { field: "name", message: `a custom model named ${quoteInput(input.name)} exists already` },
      ]);
    }
    const row = await tx.customModel.create({
      data: {
        id,
        displayName: input.name,
        contextWindow: input.contextWindow,
        maxOutputTokens: input.maxOutputTokens ?? null,
        tokenizer: input.tokenizer,
        createdAt: new Date(),
        inputPricePerMTok: input.inputPricePerMTok ?? null,
        outputPricePerMTok: input.outputPricePerMTok ?? null,
      },
    });
    return toModelInfo(row);
  });
}

export async function deleteCustomModel(name: string): Promise<void> {
  const client = await db();
  await client.$transaction(async (tx) => {
    const deleted = await tx.customModel.deleteMany({ where: { id: name.toLowerCase() } });
    if (deleted.count === 0) throw new AppError("not_found", `No custom model named ${quoteInput(name)}`);
  });
}
