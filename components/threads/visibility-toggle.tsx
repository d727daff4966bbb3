"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ThreadVisibility } from "@/lib/domain/access";
import { requestThreadVisibility } from "@/lib/queries/visibility";

/**
 * Who reads the thread, with sign-in on: its owner alone or the whole team, and (for its owner or
 * an admin) the button that changes it. The page is read again after a change.
 */
export function ReadersRow({
  threadId,
  visibility,
  owner,
  canChange,
}: Readonly<{ threadId: string; visibility: ThreadVisibility; owner: string; canChange: boolean }>) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const next: ThreadVisibility = visibility === "team" ? "private" : "team";
  const change = () =>
    startTransition(async () => {
      setError(null);
      try {
        await requestThreadVisibility(threadId, next);
        router.refresh();
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : "Changing who reads it failed.");
      }
    });
  return (
    <div className="flex min-w-0 flex-wrap gap-x-2">
      <dt className="text-zinc-500">Readers</dt>
      <dd className="min-w-0" data-testid="thread-visibility">
        {visibility === "team" ? (owner === "you" ? "Shared with the team" : `Shared with the team by ${owner}`) : `Private to ${owner}`}
      </dd>
      {canChange && (
        <dd>
          <button type="button" onClick={change} disabled={pending} className="text-indigo-700 hover:underline disabled:opacity-60">
            {pending ? "Saving…" : visibility === "team" ? "Make private" : "Share with the team"}
          </button>
        </dd>
      )}
      {error && (
        <dd role="alert" className="text-red-700">
          {error}
        </dd>
      )}
    </div>
  );
}
