import { QueryClient } from "@tanstack/react-query";

/**
 * The one way a QueryClient is made, with the app's defaults: the browser's (app/providers.tsx,
 * once per session) and each server render's that prefetches (prefetched.tsx). A query counts as
 * fresh for 30 s, so what the server prefetched is not read again on load.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } });
}
