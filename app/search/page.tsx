import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { readerFrom } from "@/lib/auth/reader";
import { SearchBox } from "@/components/search/search-box";
import { SearchResults } from "@/components/search/search-results";
import { searchTurns } from "@/lib/db/threads/search";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { Prefetched } from "@/lib/queries/prefetched";
import { SEARCH_PAGE_SIZE, searchKeys } from "@/lib/queries/search";
import { readSearchText } from "@/lib/queries/url-state";

export const metadata: Metadata = { title: "Search" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * /search?q=: the turns of every thread that hold the words, grouped by thread. The first page is
 * read here and reaches the browser's query cache (no second request on load); more through the API.
 */
export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const q = readSearchText(await searchParams) ?? "";
  return (
    <div>
      <h1 className="mb-4 text-2xl font-semibold tracking-tight">Search</h1>
      {/* Keyed by the words: a new search starts from its own box state. */}
      <SearchBox key={q} initialQuery={q} />
      {q ? (
        <Prefetched
          prefetch={async (queryClient) => {
            // A failure is left to the browser's query, which shows it with a retry.
            const reader = await readerFrom(await headers());
            const page = await searchTurns({ q, limit: SEARCH_PAGE_SIZE, cursor: undefined }, reader)
              .then(maskDeep)
              .catch(() => null);
            if (page) queryClient.setQueryData(searchKeys.hits(q), { pages: [page], pageParams: [null] });
          }}
        >
          <SearchResults q={q} />
        </Prefetched>
      ) : (
        <div className="rounded border border-dashed border-zinc-300 bg-white p-6 text-sm text-zinc-600" data-testid="search-hint">
          <p>Find words in every thread: what people and agents wrote, tool calls with their arguments, and tool outputs.</p>
          <p className="mt-2">
            A turn matches when it holds every word, as the start of a word (
            <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-mono text-xs">auth</kbd> finds “authentication”). Press{" "}
            <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-mono text-xs">/</kbd> anywhere to come back to a search box.
          </p>
        </div>
      )}
    </div>
  );
}
