import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BudgetView } from "@/components/budget/budget-view";
import { DEFAULT_PREVIEW_MODEL, listModels } from "@/lib/models/catalog";
import { readBudgetSelection } from "@/lib/queries/url-state";
import { findThreadOnce, listCustomModelsOnce } from "../thread-data";

export const metadata: Metadata = { title: "Budget" };

export default async function BudgetPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  const models = listModels(await listCustomModelsOnce()).map((m) => ({ id: m.id, provider: m.provider, contextWindow: m.contextWindow, maxOutputTokens: m.maxOutputTokens }));
  const lastModel = thread.modelsUsed.at(-1);
  const defaultModel = lastModel && models.some((m) => m.id === lastModel) ? lastModel : DEFAULT_PREVIEW_MODEL;
  const initial = readBudgetSelection(await searchParams, defaultModel);
  return (
    <BudgetView
      threadId={thread.id}
      expired={thread.expired}
      hasParent={thread.parentThreadId !== null}
      models={models}
      initial={initial}
    />
  );
}
