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

export async function GET(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => maskedJson({ job: await getCompactionJob(jobIdFrom((await params).jobId)) }));
}

/** Cancels a running job (a finished one is answered as it is). */
export async function DELETE(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => maskedJson({ job: await cancelCompactionJob(jobIdFrom((await params).jobId)) }));
}
