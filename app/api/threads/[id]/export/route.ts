import { requireAdmin } from "@/lib/auth/principal";
import { exportThread } from "@/lib/db/imports/transfer";
import { unmasked } from "@/lib/http/masking";
import { handleRoute, readJson, readQuery, threadIdFrom } from "@/lib/http/responses";
import { encryptedHtml } from "@/lib/sharing/encrypted-html";
import { readableExport, type ReadableFormat } from "@/lib/sharing/readable-export";
import { encryptedExportSchema, exportQuerySchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

const CONTENT_TYPES: Record<ReadableFormat, string> = { html: "text/html; charset=utf-8", md: "text/markdown; charset=utf-8" };

/** With sign-in on, only an admin gets secrets' values (members reveal nothing): the lossless copy, or the stored text. */
async function mayKeepSecrets(request: Request, redact: boolean): Promise<void> {
  if (!redact) await requireAdmin(request.headers, "export a thread losslessly, secrets included (add ?redact=1 for the redacted copy)");
}

function attachment(body: string, filename: string, contentType: string, redact: boolean): Response {
  const response = new Response(body, {
    headers: { "Content-Type": contentType, "Content-Disposition": `attachment; filename="${filename}"` },
  });
  // The document's exact bytes either way: lossless is a backup (secrets as stored), and the
  // redacted one has none left to mask.
  return unmasked(response, redact ? "redacted by construction; its bytes are the file as written" : "the lossless export, a backup");
}

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    // Expired threads are not found by default, as everywhere in the API; the UI opts in
    // (includeExpired) so a user can keep a copy before purging.
    const { format, chain, subagents, redact, includeExpired } = readQuery(request, exportQuerySchema);
    await mayKeepSecrets(request, redact);
    if (format === "json") {
      const body = await exportThread(id, { chain, includeExpired, redact });
      const filename = `threadline-${id}${chain ? "-chain" : ""}${redact ? "-redacted" : ""}.json`;
      return attachment(body, filename, "application/json; charset=utf-8", redact);
    }
    const { body, filename } = await readableExport(id, format, { redact, subagents, chain, includeExpired });
    return attachment(body, filename, CONTENT_TYPES[format], redact);
  });
}

/**
 * The HTML export encrypted with a password (lib/sharing/encrypted-html.ts): the password comes in
 * the body, is used once and is neither logged nor kept.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const { password, subagents, chain, redact, includeExpired } = await readJson(request, encryptedExportSchema);
    await mayKeepSecrets(request, redact);
    const { body } = await readableExport(id, "html", { redact, subagents, chain, includeExpired });
    return attachment(await encryptedHtml(body, password), `threadline-${id}-encrypted.html`, CONTENT_TYPES.html, redact);
  });
}
