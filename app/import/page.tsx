import type { Metadata } from "next";
import { connection } from "next/server";
import { ImportForm } from "@/components/import/import-form";
import { AgentLocations } from "@/components/sources/agent-locations";
import { SourcesSummaryLine } from "@/components/sources/sources-summary";
import { FORMAT_LABELS, IMPORT_FORMATS } from "@/lib/importers/types";
import { Prefetched } from "@/lib/queries/prefetched";
import { sourceKeys } from "@/lib/queries/sources";
import { sourceSync } from "@/lib/sources/sync";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  await connection(); // the followed folders' status as it is now
  return (
    <div className="max-w-3xl">
      <h1 className="mb-2 text-2xl font-semibold tracking-tight">Import</h1>
      <p className="mb-2 text-zinc-600">
        Bring in the transcripts your agents already wrote. The format of each file is detected; each file is imported whole or not at all,
        and importing it again adds only what is new.
      </p>
      <details className="mb-4 text-sm text-zinc-600">
        <summary className="cursor-pointer">Formats, and where to find them</summary>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          {IMPORT_FORMATS.map((format) => (
            <li key={format}>{FORMAT_LABELS[format]}</li>
          ))}
        </ul>
        <p className="mt-2">
          Where each agent keeps its sessions (the folders Threadline follows by itself are imported as they change, see Sources):
        </p>
        <AgentLocations />
        <p className="mt-2">
          From a terminal: <code className="rounded bg-zinc-100 px-1">npm run import -- ~/.claude/projects</code>.
        </p>
      </details>
      <Prefetched prefetch={(queryClient) => queryClient.setQueryData(sourceKeys.status(), sourceSync().status())}>
        <SourcesSummaryLine />
      </Prefetched>
      <ImportForm />
    </div>
  );
}
