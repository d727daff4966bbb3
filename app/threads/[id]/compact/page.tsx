import type { Metadata } from "next";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { notFound } from "next/navigation";
import { CompactionWorkbench } from "@/components/compaction/compaction-workbench";
import { latestCompactionJob } from "@/lib/compaction/jobs";
import { describeLlmConfig } from "@/lib/llm/config";
import { listModels, previewModelFor } from "@/lib/models/catalog";
import { compactionKeys } from "@/lib/queries/compactions";
import { Prefetched } from "@/lib/queries/prefetched";
import { decimalInteger } from "@/lib/validation/numbers";
import { findThreadOnce, listCustomModelsOnce } from "../thread-data";

export const metadata: Metadata = { title: "Compact" };

/**
 * The compaction workbench: preview, edit and apply a compaction as a new revision of the thread.
 * The page reads no turns: the workbench loads the ones it shows (a session may have 35,000).
 */
export default async function CompactPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  if (thread.turnCount === 0) {
    return (
      <p className="rounded border border-zinc-200 bg-white p-4 text-zinc-600">
        This thread has no turns yet: there is nothing to compact.
      </p>
    );
  }
  const custom = await listCustomModelsOnce();
  const models = listModels(custom).map((m) => m.id);
  // "Summarise up to here / from here" on a turn opens the range preset (?strategy=range&direction=&at=).
  const query = await searchParams;
  const at = decimalInteger(0, thread.turnCount - 1).safeParse(query.at);
  const direction: "up-to" | "from" | null = query.direction === "up-to" || query.direction === "from" ? query.direction : null;
  const initialRange = query.strategy === "range" && direction && at.success ? { direction, at: at.data } : null;
  const llm = await describeLlmConfig();
  // Without a range preset, the thread's newest job is restored (useRestorableJob).
  const latestJob = initialRange ? undefined : maskDeep(await latestCompactionJob(thread.id));
  return (
    <Prefetched
      prefetch={(queryClient) => {
        if (latestJob !== undefined) queryClient.setQueryData(compactionKeys.latestJob(thread.id), latestJob);
      }}
    >
      <CompactionWorkbench
        threadId={thread.id}
        turnCount={thread.turnCount}
        models={models}
        initialTargetModel={previewModelFor(thread.modelsUsed, custom)}
        defaultLlmModel={llm.compactionModel && !llm.compactionModel.error ? llm.compactionModel.value : null}
        configuredProviders={llm.providers.filter((p) => p.configured).map((p) => p.provider)}
        initialRange={initialRange}
      />
    </Prefetched>
  );
}
