import type { Metadata } from "next";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { headers } from "next/headers";
import { connection } from "next/server";
import { ThreadList } from "@/components/threads/thread-list";
import { withSessionFigures } from "@/lib/db/usage/session-figures";
import { mayAdminister } from "@/lib/auth/principal";
import { readerFrom } from "@/lib/auth/reader";
import { countDemoThreads } from "@/lib/demo/demo-threads";
import { withThreadCosts } from "@/lib/db/usage/session-usage";
import { listToolOptions } from "@/lib/db/threads/thread-tools";
import { listFacets, listThreads } from "@/lib/db/threads/threads";
import { Prefetched } from "@/lib/queries/prefetched";
import { sourceKeys } from "@/lib/queries/sources";
import { sourceSync } from "@/lib/sources/sync";
import { PAGE_SIZE, threadKeys, type ThreadFilters } from "@/lib/queries/threads";
import { readThreadFilters } from "@/lib/queries/url-state";

export const metadata: Metadata = { title: "Threads" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ThreadsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  // Filters that fail validation (a 600-character query, say) are dropped rather than shown as an error page.
  const filters: ThreadFilters = readThreadFilters(await searchParams);
  const reader = await readerFrom(await headers());
  const [page, facets, tools, demoCount, canRemove] = await Promise.all([
    listThreads(
      {
        q: filters.q,
        tool: filters.tool,
        model: filters.model,
        source: filters.source,
        project: filters.project,
        cursor: undefined,
        limit: PAGE_SIZE,
      },
      reader,
    )
      .then(withThreadCosts)
      .then(withSessionFigures)
      .then(maskDeep),
    listFacets(reader),
    listToolOptions(),
    countDemoThreads(),
    headers().then(mayAdminister),
  ]);
  // The list's first page, read here, reaches the browser's query cache under the key its query
  // uses: no second request on load, and later pages and other filters go through the API.
  return (
    <div>
      <h1 className="mb-4 text-2xl font-semibold tracking-tight">Threads</h1>
      <Prefetched
        prefetch={(queryClient) => {
          queryClient.setQueryData(threadKeys.list(filters), { pages: [page], pageParams: [null] });
          // The followed folders' status (the Sources page's), for a running sync's progress.
          queryClient.setQueryData(sourceKeys.status(), sourceSync().status());
        }}
      >
        <ThreadList initialFilters={filters} facets={{ ...facets, tools }} demo={{ count: demoCount, canRemove }} syncProgress />
      </Prefetched>
    </div>
  );
}
