"use client";

import { useRouter } from "next/navigation";
import { usePurgeThread } from "@/lib/queries/hooks";
import { useHydrated } from "@/lib/queries/use-hydrated";

export function PurgeButton({ threadId, childCount }: { threadId: string; childCount: number }) {
  const router = useRouter();
  const purgeThread = usePurgeThread();
  const hydrated = useHydrated();
  const purge = () => {
    const children = childCount > 0 ? `\n\n${childCount} continuation thread(s) keep their link to it and will show it as purged.` : "";
    if (!window.confirm(`Purge this thread and all its turns? This cannot be undone.${children}`)) return;
    // The list's cached pages would show the purged thread again: the mutation drops them first.
    purgeThread.mutate({ threadId }, { onSuccess: () => router.push("/threads") });
  };
  const pending = purgeThread.isPending;
  const error = purgeThread.error?.message ?? null;
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={purge}
        disabled={pending || !hydrated}
        className="rounded bg-red-600 px-3 py-1 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60"
      >
        {pending ? "Purging…" : "Purge thread"}
      </button>
      {error && (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
