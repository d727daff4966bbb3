import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BudgetView } from "@/components/budget/budget-view";
import { listModels, previewModelChoice, previewModelNote } from "@/lib/models/catalog";
import { buildContextPreview } from "@/lib/context/build-context";
import { parseOrThrow } from "@/lib/domain/parse";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { Prefetched } from "@/lib/queries/prefetched";
import { contextPreviewParams, threadKeys } from "@/lib/queries/threads";
import { readBudgetSelection } from "@/lib/queries/url-state";
import { contextQuerySchema } from "@/lib/validation/context";
import { queryObject } from "@/lib/validation/query";
import { findThreadOnce, listCustomModelsOnce } from "../thread-data";

export const metadata: Metadata = { title: "Budget" };

export default async function BudgetPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  const custom = await listCustomModelsOnce();
  const models = listModels(custom).map((m) => ({
    id: m.id,
    provider: m.provider,
    contextWindow: m.contextWindow,
    maxOutputTokens: m.maxOutputTokens,
  }));
  // The thread's own last model, by its catalog entry (a dated id is its family's); said when it falls back.
  const choice = previewModelChoice(thread.modelsUsed, custom);
  const initial = readBudgetSelection(await searchParams, choice.id);
  return (
    <Prefetched
      prefetch={async (queryClient) => {
        if (thread.expired) return;
        // The preview GET /api/threads/:id/context answers for this selection; a failure is left to the browser's query.
        const preview = await Promise.resolve()
          .then(() => buildContextPreview(thread.id, parseOrThrow(contextQuerySchema, queryObject(contextPreviewParams(initial)))))
          .then(maskDeep)
          .catch(() => null);
        if (preview) queryClient.setQueryData(threadKeys.context(thread.id, initial), preview);
      }}
    >
      <BudgetView
        threadId={thread.id}
        expired={thread.expired}
        hasParent={thread.parentThreadId !== null}
        models={models}
        initial={initial}
        defaultModel={{ id: choice.id, note: previewModelNote(choice) }}
      />
    </Prefetched>
  );
}
