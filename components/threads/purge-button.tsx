"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { purgeThreadAction } from "@/lib/actions/threads";
import { threadKeys } from "@/lib/queries/threads";

export function PurgeButton({ threadId, childCount }: { threadId: string; childCount: number }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const purge = () => {
    const children = childCount > 0 ? `\n\n${childCount} continuation thread(s) keep their link to it and will show it as purged.` : "";
    if (!window.confirm(`Purge this thread and all its turns? This cannot be undone.${children}`)) return;
    startTransition(async () => {
      const result = await purgeThreadAction({ threadId });
      if (!result.ok) return setError(result.error.message);
      // The list keeps its pages in the query cache (fresh for 30 s) and would show the purged
      // thread again; dropped, the list starts from the server's fresh first page.
      queryClient.removeQueries({ queryKey: threadKeys.all });
      router.push("/threads");
    });
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={purge}
        disabled={pending}
        className="rounded bg-red-600 px-3 py-1 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60"
      >
        {pending ? "Purging…" : "Purge thread"}
      </button>
      {error && <span role="alert" className="text-sm text-red-700">{error}</span>}
    </span>
  );
}
