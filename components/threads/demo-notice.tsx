"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { plural } from "@/lib/format";
import { useRemoveDemoThreads } from "@/lib/queries/hooks";

const noSubscription = () => () => {};

/** Where a dismissal is remembered, in this browser. */
const DISMISSED = "threadline:demo-notice-dismissed";

/**
 * Above the thread list while the database holds demo threads (seeded by `npm start` for someone
 * without sessions): says so and offers to remove them (DELETE /api/demo-threads, which deletes
 * exactly those; an admin's with sign-in on), or to keep them and hide the notice.
 */
export function DemoNotice({ count, canRemove }: { count: number; canRemove: boolean }) {
  const removal = useRemoveDemoThreads();
  const router = useRouter();
  // Shown in the server's HTML; hidden once hydrated if this browser dismissed it (or now, when it does).
  const [dismissedNow, setDismissedNow] = useState(false);
  const dismissedBefore = useSyncExternalStore(
    noSubscription,
    () => window.localStorage.getItem(DISMISSED) === "1",
    () => false,
  );
  if (dismissedNow || dismissedBefore) return null;

  const remove = () => removal.mutate(undefined, { onSuccess: () => router.refresh() });
  const dismiss = () => {
    window.localStorage.setItem(DISMISSED, "1");
    setDismissedNow(true);
  };

  if (removal.isSuccess) {
    return (
      <p role="status" className="mb-4 rounded border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
        Removed {plural(removal.data, "demo thread")}.
      </p>
    );
  }
  return (
    <div
      role="region"
      aria-label="Demo threads"
      className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-2 rounded border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950"
      data-testid="demo-notice"
    >
      <p className="min-w-0 flex-1">
        <strong className="font-semibold">These are demo threads.</strong> {plural(count, "thread")} seeded to show what Threadline does;
        your own sessions appear beside them as they are imported.
      </p>
      {canRemove && (
        <button
          type="button"
          disabled={removal.isPending}
          onClick={remove}
          className="rounded bg-sky-800 px-3 py-1.5 font-medium text-white hover:bg-sky-900 disabled:opacity-60"
        >
          {removal.isPending ? "Removing…" : "Remove them"}
        </button>
      )}
      <button type="button" onClick={dismiss} className="rounded border border-sky-300 bg-white px-3 py-1.5 text-sky-900 hover:bg-sky-100">
        Keep them, hide this
      </button>
      {removal.error && (
        <p role="alert" className="basis-full text-red-800">
          {removal.error.message}
        </p>
      )}
    </div>
  );
}
