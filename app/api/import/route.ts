import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { importDocuments } from "@/lib/db/transfer";
import { handleRoute, parseJsonText, readBodyText, validate } from "@/lib/http/responses";
import { nativeDocumentSchema } from "@/lib/domain/native-format";

const documentListSchema = z.array(nativeDocumentSchema).min(1, "must hold at least one document");
const modeSchema = z.enum(["strict", "copy"], { error: 'mode must be "copy" or absent' });

/** Imports one threadline/v1 document or an array of them, all or nothing. */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const modeParam = new URL(request.url).searchParams.get("mode") ?? "strict";
    const mode = modeSchema.safeParse(modeParam);
    if (!mode.success) throw new AppError("validation_failed", `mode: must be "copy" or absent; got "${modeParam.slice(0, 50)}"`);
    const body = parseJsonText(await readBodyText(request));
    // Validated by shape so that errors name the field rather than "no union member matched".
    const documents = Array.isArray(body) ? validate(documentListSchema, body) : [validate(nativeDocumentSchema, body)];
    const result = await importDocuments(documents, mode.data);
    return Response.json(result, { status: 201 });
  });
}
