"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { LiveEventsProvider } from "@/lib/queries/live-events";
import { makeQueryClient } from "@/lib/queries/query-client";

/** The one QueryClientProvider, created once per browser session, and the tab's one live event stream. */
export function Providers({ children }: Readonly<{ children: ReactNode }>) {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <LiveEventsProvider>{children}</LiveEventsProvider>
    </QueryClientProvider>
  );
}
