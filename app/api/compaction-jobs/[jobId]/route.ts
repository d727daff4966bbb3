import { readerFrom } from "@/lib/auth/reader";
import { requireManageableThread, requireReadableThread } from "@/lib/auth/thread-access";
import { maskedJson } from "@/lib/http/masking";
import { cancelCompactionJob, getCompactionJob } from "@/lib/compaction/jobs";
import { normalizeId } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { quoteInput } from "@/lib/domain/secrets/quote";
import { handleRoute } from "@/lib/http/responses";

type Context = { params: Promise<{ jobId: string }> };

function jobIdFrom(raw: string): string {
  const id = normalizeId(raw);
  if (!id) throw new AppError("not_found", `Compaction job ${quoteInput(raw)} not found: job ids are UUIDs`);
  return id;
}

/** A job of a thread the person may not read is answered as a job that does not exist. */
async function jobOf(request: Request, raw: string, action: "read" | "manage") {
  const job = await getCompactionJob(jobIdFrom(raw));
  const reader = await readerFrom(request.headers);
  try {
    if (action === "manage") await requireManageableThread(reader, job.threadId);
    else await requireReadableThread(reader, job.threadId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found")
      throw new AppError("not_found", `Compaction job ${quoteInput(raw)} not found`);
    throw error;
  }
  return job;
}

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => maskedJson({ job: await jobOf(request, (await params).jobId, "read") }));
}

/** Cancels a running job (a finished one is answered as it is). */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const { id } = await jobOf(request, (await params).jobId, "manage");
    return maskedJson({ job: await cancelCompactionJob(id) });
  });
}
