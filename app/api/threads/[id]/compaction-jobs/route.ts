import { maskedJson } from "@/lib/http/masking";
import { latestCompactionJob, startCompactionJob } from "@/lib/compaction/jobs";
import { getThread } from "@/lib/db/threads/threads";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { compactionRequestSchema } from "@/lib/validation/compactions";

type Context = { params: Promise<{ id: string }> };

/** Starts a summarisation in the background: 202 {job}; poll GET /api/compaction-jobs/:jobId. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const body = await readJson(request, compactionRequestSchema);
    return maskedJson({ job: await startCompactionJob(id, { ...body, apply: false }) }, { status: 202 });
  });
}

/** The thread's newest job, finished or not (null when there is none). */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    await getThread(id, { includeExpired: true });
    return maskedJson({ job: await latestCompactionJob(id) });
  });
}
