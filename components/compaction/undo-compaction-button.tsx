"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { undoCompactionAction } from "@/lib/actions/compactions";

/** One click back to the original: the revision is deleted, the original was never changed. */
export function UndoCompactionButton({ revisionThreadId, warning }: { revisionThreadId: string; warning: string | null }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  // One click, unless the revision holds work of its own since (then it asks first).
  const undo = () => {
    if (warning && !window.confirm(`${warning}\n\nUndo the compaction anyway?`)) return;
    startTransition(async () => {
      const result = await undoCompactionAction({ threadId: revisionThreadId });
      if (!result.ok) return setError(result.error.message);
      queryClient.removeQueries({ queryKey: ["threads"] });
      router.push(`/threads/${result.data.originalThreadId}`);
      router.refresh();
    });
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" onClick={undo} disabled={pending} className="rounded border border-violet-300 bg-violet-50 px-2 py-0.5 text-sm font-medium text-violet-900 hover:bg-violet-100 disabled:opacity-60">
        {pending ? "Undoing…" : "Undo compaction"}
      </button>
      {error && <span role="alert" className="text-sm text-red-700">{error}</span>}
    </span>
  );
}
