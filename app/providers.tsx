"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { LiveEventsProvider } from "@/lib/queries/live-events";

/** The one QueryClientProvider, created once per browser session, and the tab's one live event stream. */
export function Providers({ children }: Readonly<{ children: ReactNode }>) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <LiveEventsProvider>{children}</LiveEventsProvider>
    </QueryClientProvider>
  );
}
