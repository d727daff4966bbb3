import type { Metadata } from "next";
import { connection } from "next/server";
import { ThreadList } from "@/components/threads/thread-list";
import { listFacets, listThreads } from "@/lib/db/threads";
import { PAGE_SIZE, type ThreadFilters } from "@/lib/queries/threads";
import { listThreadsQuerySchema } from "@/lib/validation/threads";

export const metadata: Metadata = { title: "Threads" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ThreadsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const raw = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const parsed = listThreadsQuerySchema.safeParse({ q: first(raw.q), tool: first(raw.tool), model: first(raw.model), limit: PAGE_SIZE });
  // Filters that fail validation (a 600-character query, say) are dropped rather than shown as an error page.
  const filters: ThreadFilters = parsed.success ? { q: parsed.data.q, tool: parsed.data.tool, model: parsed.data.model } : {};
  const [page, facets] = await Promise.all([
    listThreads({ q: filters.q, tool: filters.tool, model: filters.model, cursor: undefined, limit: PAGE_SIZE }),
    listFacets(),
  ]);
  return (
    <div>
      <h1 className="mb-4 text-2xl font-semibold tracking-tight">Threads</h1>
      <ThreadList initialFilters={filters} initialPage={page} facets={facets} />
    </div>
  );
}
