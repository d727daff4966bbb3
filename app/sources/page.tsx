import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { SourcesPanel } from "@/components/sources/sources-panel";
import { mayAdminister } from "@/lib/auth/principal";
import { Prefetched } from "@/lib/queries/prefetched";
import { sourceKeys } from "@/lib/queries/sources";
import { sourceSync } from "@/lib/sources/sync";

export const metadata: Metadata = { title: "Sources" };

export default async function SourcesPage() {
  await connection();
  const canSync = await mayAdminister(await headers());
  return (
    <div className="max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Sources</h1>
      <p className="text-zinc-600">
        The folders Threadline follows for agent transcripts (THREADLINE_SOURCES). Each sync imports the files that are new or changed since
        the last one: a session that grew adds its new turns, and a file that was deleted keeps its threads.
      </p>
      <Prefetched prefetch={(queryClient) => queryClient.setQueryData(sourceKeys.status(), sourceSync().status())}>
        <SourcesPanel canSync={canSync} />
      </Prefetched>
    </div>
  );
}
