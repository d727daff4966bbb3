import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CompactionWorkbench } from "@/components/compaction/compaction-workbench";
import { latestCompactionJob } from "@/lib/compaction/jobs";
import { findThreadWithTurns } from "@/lib/db/threads";
import { contentPreview } from "@/lib/format";
import { describeLlmConfig } from "@/lib/llm/config";
import { listModels, previewModelFor } from "@/lib/models/catalog";
import { listCustomModelsOnce } from "../thread-data";

export const metadata: Metadata = { title: "Compact" };

/** The compaction workbench: preview, edit and apply a compaction as a new revision of the thread. */
export default async function CompactPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const found = await findThreadWithTurns((await params).id);
  if (!found) notFound();
  const { thread, turns } = found;
  if (turns.length === 0) {
    return <p className="rounded border border-zinc-200 bg-white p-4 text-zinc-600">This thread has no turns yet: there is nothing to compact.</p>;
  }
  const custom = await listCustomModelsOnce();
  const models = listModels(custom).map((m) => m.id);
  // "Summarise up to here / from here" on a turn opens the range preset (?strategy=range&direction=&at=).
  const query = await searchParams;
  const at = Number(query.at);
  const direction: "up-to" | "from" | null = query.direction === "up-to" || query.direction === "from" ? query.direction : null;
  const initialRange = query.strategy === "range" && direction && Number.isInteger(at) && at >= 0 && at < turns.length ? { direction, at } : null;
  const llm = await describeLlmConfig();
  return (
    <CompactionWorkbench
      threadId={thread.id}
      turns={turns.map((t) => ({ index: t.index, role: t.role, toolName: t.toolName, excerpt: contentPreview(t.content, 240), chars: t.content.length }))}
      models={models}
      initialTargetModel={previewModelFor(thread.modelsUsed, custom)}
      defaultLlmModel={llm.compactionModel && !llm.compactionModel.error ? llm.compactionModel.value : null}
      configuredProviders={llm.providers.filter((p) => p.configured).map((p) => p.provider)}
      initialJob={initialRange ? null : await latestCompactionJob(thread.id)}
      initialRange={initialRange}
    />
  );
}
