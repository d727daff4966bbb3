import { requireAdmin } from "@/lib/auth/principal";
import { exportThread } from "@/lib/db/imports/transfer";
import { unmasked } from "@/lib/http/masking";
import { handleRoute, readQuery, threadIdFrom } from "@/lib/http/responses";
import { exportQuerySchema } from "@/lib/validation/threads";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    // Expired threads are not found by default, as everywhere in the API; the UI opts in
    // (includeExpired) so a user can keep a copy before purging.
    const { chain, redact, includeExpired } = readQuery(request, exportQuerySchema);
    // The lossless copy holds every secret's value: with sign-in on, an admin's (members reveal
    // nothing; their export is ?redact=1).
    if (!redact) await requireAdmin(request.headers, "export a thread losslessly, secrets included (add ?redact=1 for the redacted copy)");
    const body = await exportThread(id, { chain, includeExpired, redact });
    const response = new Response(body, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="threadline-${id}${chain ? "-chain" : ""}${redact ? "-redacted" : ""}.json"`,
      },
    });
    // The document's exact bytes either way: lossless is a backup (secrets as stored), and the
    // redacted one has none left to mask.
    return unmasked(response, redact ? "redacted by construction; its bytes re-import as they are" : "the lossless export, a backup");
  });
}
