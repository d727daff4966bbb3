import { readerFrom } from "@/lib/auth/reader";
import { refuseViewer } from "@/lib/auth/thread-access";
import { importingFor } from "@/lib/db/imports/import-owner";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { importDocuments } from "@/lib/db/imports/transfer";
import { handleRoute, parseJsonText, readQuery } from "@/lib/http/responses";
import { parseOrThrow } from "@/lib/domain/parse";
import { quoteInput } from "@/lib/domain/secrets/quote";
import { nativeDocumentSchema } from "@/lib/domain/transfer/native-format";
import { serverSettings } from "@/lib/env";
import { isImportFormat, supportedFormatsText } from "@/lib/importers";
import { importPath } from "@/lib/imports/import-file";
import { importQuerySchema } from "@/lib/validation/imports";

const documentListSchema = z.array(nativeDocumentSchema).min(1, "must hold at least one document");

/** Agent transcripts are big (a long Claude Code session passes 100 MB); they are streamed, not buffered. */
const MAX_TRANSCRIPT_BYTES = 2 * 1024 ** 3;

function isNativeHead(head: string): boolean {
  // Cheap: the native format names itself near the start; anything else goes to the detectors.
  return /^\s*[[{]/.test(head) && /"format"\s*:\s*"threadline\/v1"/.test(head);
}

/** Writes the request body to `file`, refusing more than `limit` bytes; answers its size and first 4 KB. */
async function spool(request: Request, file: string, limit: number): Promise<{ size: number; head: string }> {
  const out = createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  let size = 0;
  const head: Buffer[] = [];
  try {
    if (request.body) {
      const reader = request.body.getReader();
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel();
          throw new AppError("payload_too_large", `The file is larger than the import limit of ${limit} bytes`);
        }
        if (size - value.byteLength < 4096) head.push(Buffer.from(value.subarray(0, 4096)));
        if (!out.write(value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      }
    }
  } finally {
    out.end();
    await done;
  }
  return { size, head: Buffer.concat(head).subarray(0, 4096).toString("utf8") };
}

/**
 * Imports a file. Threadline's own documents (one, or an array) are imported all or nothing, with
 * ?mode=copy for new ids. Any other supported transcript (Claude Code, Codex, Gemini CLI, ChatGPT,
 * PAL, pydantic-ai, role/content lists) is detected, or named with ?format=; ?name= gives the file
 * name (its path relative to the folder chosen), which detection and sub-agent links use. The body
 * is spooled to a temporary file, so Claude Code sessions of any size stream through. Re-importing
 * the same content changes nothing (200 "unchanged"); after any import, a thread holds exactly the
 * file's turns. A format without ids (role/content lists, pydantic-ai without a conversation id)
 * is identified by its name: posted without ?name=, it is a new thread every time.
 */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const reader = await readerFrom(request.headers);
    refuseViewer(reader);
    // The threads it creates are the importer's (lib/db/imports/import-owner.ts).
    return importingFor(reader, null, () => importBody(request));
  });
}

/** The import itself, as its owner (see POST). */
async function importBody(request: Request): Promise<Response> {
  const { format: formatParam, mode, name: nameParam } = readQuery(request, importQuerySchema);
  if (formatParam !== undefined && !isImportFormat(formatParam)) {
    throw new AppError("validation_failed", `format: unknown format ${quoteInput(formatParam)}. Supported: ${supportedFormatsText()}.`, [
      { field: "format", message: "unknown format" },
    ]);
  }
  // Without a name, a format without ids (a role/content list, say) is a new conversation every time.
  const name = nameParam ?? "upload";

  const dir = await mkdtemp(path.join(os.tmpdir(), "threadline-import-"));
  try {
    const file = path.join(dir, "upload");
    const { size, head } = await spool(request, file, MAX_TRANSCRIPT_BYTES);
    if ((formatParam === undefined || formatParam === "threadline") && isNativeHead(head)) {
      const limit = serverSettings().maxBodyBytes.value;
      if (size > limit)
        throw new AppError("payload_too_large", `Request body is larger than the limit of ${limit} bytes (THREADLINE_MAX_BODY_BYTES)`);
      const body = parseJsonText(await readFile(file, "utf8"));
      // Validated by shape so that errors name the field rather than "no union member matched".
      const documents = Array.isArray(body) ? parseOrThrow(documentListSchema, body) : [parseOrThrow(nativeDocumentSchema, body)];
      return Response.json(await importDocuments(documents, mode), { status: 201 });
    }
    if (size === 0 || !head.trim()) throw new AppError("invalid_json", "The request body is empty: send the file's content");
    const report = await importPath(file, name, formatParam, { nameless: nameParam === undefined });
    if (report.status === "failed")
      throw new AppError("unsupported_format", report.error ?? "The file could not be imported", { ...report });
    return Response.json(report, { status: report.status === "imported" ? 201 : 200 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
