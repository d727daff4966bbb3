import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { makeQueryClient } from "./query-client";

/**
 * A server page's queries, read on the server and handed to the browser's query cache under the
 * keys its hooks use: the first render has the data, and no request repeats it on load. `prefetch`
 * fills a fresh client the way the API routes answer (the same service calls, never HTTP to the
 * server itself); a query it leaves out, or one whose read failed, is left to the browser.
 */
export async function Prefetched({
  prefetch,
  children,
}: {
  /** May be async: the page waits for it. */
  prefetch: (queryClient: QueryClient) => unknown;
  children: ReactNode;
}) {
  const queryClient = makeQueryClient();
  await prefetch(queryClient);
  return <HydrationBoundary state={dehydrate(queryClient)}>{children}</HydrationBoundary>;
}
