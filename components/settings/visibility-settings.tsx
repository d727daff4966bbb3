"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ThreadVisibility } from "@/lib/domain/access";
import { requestDefaultVisibility, requestProjectVisibility } from "@/lib/queries/visibility";

type ProjectRow = { project: string; visibility: ThreadVisibility | null };

const LABELS: Record<ThreadVisibility, string> = { private: "Only me", team: "The whole team" };

/**
 * Settings -> Who reads your threads: the visibility of the threads a person adds from now on,
 * and of each of their projects (all its threads now and later). A thread's own setting is on its page.
 */
export function VisibilitySettings({
  defaultVisibility,
  projects,
}: Readonly<{ defaultVisibility: ThreadVisibility; projects: ProjectRow[] }>) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const run = (work: () => Promise<string>) =>
    startTransition(async () => {
      try {
        setMessage(await work());
        router.refresh();
      } catch (failure) {
        setMessage(failure instanceof Error ? failure.message : "Saving failed.");
      }
    });
  return (
    <div className="space-y-4 text-sm">
      <label className="flex flex-wrap items-center gap-2">
        <span className="text-zinc-700">New threads you create, import or push are read by</span>
        <select
          value={defaultVisibility}
          disabled={pending}
          onChange={(event) => {
            const visibility = event.target.value as ThreadVisibility;
            run(async () => (await requestDefaultVisibility(visibility), `New threads: ${LABELS[visibility].toLowerCase()}.`));
          }}
          className="rounded border border-zinc-300 bg-white px-2 py-1"
        >
          <option value="private">{LABELS.private}</option>
          <option value="team">{LABELS.team}</option>
        </select>
      </label>
      {projects.length === 0 ? (
        <p className="text-zinc-600">Your threads name no project yet: agents&apos; sessions are grouped by the folder they ran in.</p>
      ) : (
        <table className="w-full text-left">
          <caption className="mb-1 text-left text-zinc-600">Per project: every thread of yours in it, now and later.</caption>
          <thead>
            <tr className="text-zinc-500">
              <th scope="col" className="py-1 font-normal">
                Project
              </th>
              <th scope="col" className="py-1 font-normal">
                Read by
              </th>
            </tr>
          </thead>
          <tbody>
            {projects.map((row) => (
              <tr key={row.project} className="border-t border-zinc-100">
                <td className="max-w-0 truncate py-1 pr-2 font-mono text-xs" title={row.project}>
                  {row.project}
                </td>
                <td className="py-1">
                  <select
                    aria-label={`Who reads ${row.project}`}
                    value={row.visibility ?? ""}
                    disabled={pending}
                    onChange={(event) => {
                      const visibility = event.target.value as ThreadVisibility;
                      run(async () => {
                        const { threadsChanged } = await requestProjectVisibility(row.project, visibility);
                        return `${row.project}: ${LABELS[visibility].toLowerCase()} (${threadsChanged} thread${threadsChanged === 1 ? "" : "s"} changed).`;
                      });
                    }}
                    className="rounded border border-zinc-300 bg-white px-2 py-1"
                  >
                    {row.visibility === null && <option value="">As new threads</option>}
                    <option value="private">{LABELS.private}</option>
                    <option value="team">{LABELS.team}</option>
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {message && (
        <p role="status" className="text-zinc-600">
          {message}
        </p>
      )}
    </div>
  );
}
