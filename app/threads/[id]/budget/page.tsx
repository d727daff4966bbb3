import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BudgetView } from "@/components/budget/budget-view";
import { DEFAULT_PREVIEW_MODEL, listModels } from "@/lib/models/catalog";
import { findThreadOnce, listCustomModelsOnce } from "../thread-data";

export const metadata: Metadata = { title: "Budget" };

export default async function BudgetPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  const query = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const models = listModels(await listCustomModelsOnce()).map((m) => ({ id: m.id, provider: m.provider, contextWindow: m.contextWindow, maxOutputTokens: m.maxOutputTokens }));
  const lastModel = thread.modelsUsed.at(-1);
  const initialModel = first(query.model) ?? (lastModel && models.some((m) => m.id === lastModel) ? lastModel : DEFAULT_PREVIEW_MODEL);
  return (
    <BudgetView
      threadId={thread.id}
      expired={thread.expired}
      models={models}
      initial={{ model: initialModel, contextWindow: first(query.contextWindow) ?? "", mode: first(query.mode) === "pal" ? "pal" : "exact" }}
    />
  );
}
