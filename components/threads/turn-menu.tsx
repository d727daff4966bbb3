"use client";

import { useRouter } from "next/navigation";
import { useForkThread } from "@/lib/queries/hooks";

/**
 * A turn's menu, as an agent's rewind menu offers: fork the thread here, or open the compaction
 * workbench preset to summarise up to or from here.
 */
export function TurnMenu({ threadId, index }: { threadId: string; index: number }) {
  const router = useRouter();
  const forkThread = useForkThread();
  const compact = (direction: "up-to" | "from") => `/threads/${threadId}/compact?strategy=range&direction=${direction}&at=${index}`;
  const fork = () =>
    forkThread.mutate(
      { threadId, request: { atTurn: index } },
      { onSuccess: ({ forkThreadId }) => router.push(`/threads/${forkThreadId}`) },
    );
  const pending = forkThread.isPending;
  const error = forkThread.error?.message ?? null;
  return (
    <details className="relative">
      <summary
        className="cursor-pointer list-none rounded px-1 hover:bg-zinc-100"
        aria-label={`Turn ${index + 1} actions`}
        title="Fork or compact from this turn"
      >
        ⋯
      </summary>
      <span className="absolute right-0 z-10 mt-1 flex w-56 flex-col rounded border border-zinc-200 bg-white py-1 text-sm shadow">
        <button
          type="button"
          onClick={fork}
          disabled={pending}
          className="px-3 py-1.5 text-left text-zinc-800 hover:bg-zinc-50 disabled:opacity-60"
        >
          {pending ? "Forking…" : "Fork from here"}
        </button>
        <a href={compact("up-to")} className="px-3 py-1.5 text-zinc-800 hover:bg-zinc-50">
          Summarise up to here
        </a>
        <a href={compact("from")} className="px-3 py-1.5 text-zinc-800 hover:bg-zinc-50">
          Summarise from here
        </a>
        {error && (
          <span role="alert" className="px-3 py-1.5 text-red-700">
            {error}
          </span>
        )}
      </span>
    </details>
  );
}
