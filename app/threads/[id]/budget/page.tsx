import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BudgetView } from "@/components/budget/budget-view";
import { listModels, previewModelChoice, previewModelNote } from "@/lib/models/catalog";
import { readBudgetSelection } from "@/lib/queries/url-state";
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
  // No prefetched preview: it holds a row per turn (3.3 MB of HTML for a 10,000-turn chain), so
  // the page comes light and the preview arrives by its own query, with its loading state.
  return (
    <BudgetView
      threadId={thread.id}
      expired={thread.expired}
      hasParent={thread.parentThreadId !== null}
      models={models}
      initial={initial}
      defaultModel={{ id: choice.id, note: previewModelNote(choice) }}
    />
  );
}
