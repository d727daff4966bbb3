"use client";

import { ShareLinksTable } from "@/components/sharing/share-links-table";
import { useShares } from "@/lib/queries/use-shares";

/** Settings -> Share links: every link the viewer may see (an admin: everyone's), through GET /api/shares. */
export function ShareLinks() {
  const links = useShares(null);
  return (
    <div className="mt-3">
      {links.error && (
        <p role="alert" className="text-sm text-red-700">
          {links.error.message}
        </p>
      )}
      {!links.data && links.isFetching && <p className="text-sm text-zinc-500">Loading the share links…</p>}
      {links.data && <ShareLinksTable links={links.data} showThread empty="No share links yet: make one with Share… on a thread's page." />}
    </div>
  );
}
