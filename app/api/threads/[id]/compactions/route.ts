import { readerFrom } from "@/lib/auth/reader";
import { maskedJson } from "@/lib/http/masking";
import { applyCompactionJob } from "@/lib/compaction/jobs";
import { applyCompaction, previewCompaction, publicPreview } from "@/lib/compaction/service";
import { compactionLinks } from "@/lib/db/threads/compactions";
import { getThread } from "@/lib/db/threads/threads";
import { idempotentWrite } from "@/lib/http/idempotency";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { compactionRequestSchema } from "@/lib/validation/compactions";

type Context = { params: Promise<{ id: string }> };

/**
 * With apply false (the default): the preview (plan, summary, tokens before and after, lost
 * references, refusal). With apply true: 201 {thread, compaction}, the new compacted revision.
 * With apply true and a jobId: applies that finished LLM job's summary (or the edited `summary`).
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const body = await readJson(request, compactionRequestSchema);
    if (!body.apply) return maskedJson({ preview: publicPreview(await previewCompaction(id, body, { signal: request.signal })) });
    // An Idempotency-Key counts for apply only: a preview writes nothing.
    return idempotentWrite(request, id, "compaction_apply", body, async () => {
      const applied = body.jobId ? await applyCompactionJob(id, body.jobId, body.summary) : await applyCompaction(id, body);
      return maskedJson(applied, { status: 201 });
    });
  });
}

/** The thread's compaction lineage: revisions made from it, and the compaction it came from. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    await getThread(id, { includeExpired: true });
    return maskedJson(await compactionLinks(id, await readerFrom(request.headers)));
  });
}
