"use client";

import { useRouter } from "next/navigation";
import { useUndoCompaction } from "@/lib/queries/hooks";
import { useHydrated } from "@/lib/queries/use-hydrated";

/** One click back to the original: the revision is deleted, the original was never changed. */
export function UndoCompactionButton({ revisionThreadId, warning }: { revisionThreadId: string; warning: string | null }) {
  const router = useRouter();
  const undoCompaction = useUndoCompaction();
  const hydrated = useHydrated();
  // One click, unless the revision holds work of its own since (then it asks first).
  const undo = () => {
    if (warning && !window.confirm(`${warning}\n\nUndo the compaction anyway?`)) return;
    undoCompaction.mutate(
      { threadId: revisionThreadId },
      {
        onSuccess: ({ originalThreadId }) => {
          router.push(`/threads/${originalThreadId}`);
          router.refresh();
        },
      },
    );
  };
  const pending = undoCompaction.isPending;
  const error = undoCompaction.error?.message ?? null;
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={undo}
        disabled={pending || !hydrated}
        className="rounded border border-violet-300 bg-violet-50 px-2 py-0.5 text-sm font-medium text-violet-900 hover:bg-violet-100 disabled:opacity-60"
      >
        {pending ? "Undoing…" : "Undo compaction"}
      </button>
      {error && (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
