"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { requestRedaction } from "@/lib/queries/secrets";

/**
 * Redacts in place (POST /api/secrets/redact) after asking: one secret of a turn, or every secret
 * of a thread when no turn is given. Irreversible; the thread records it.
 */
export function RedactButton({
  threadId,
  turnId,
  fingerprint,
  label,
}: {
  threadId: string;
  turnId?: string;
  fingerprint?: string;
  label: string;
}) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "busy" | string>("idle");
  const onClick = async () => {
    const what = turnId ? "this secret" : "every secret found in this thread";
    if (!window.confirm(`Redact ${what} in the stored transcript? The original text cannot be brought back.`)) return;
    setState("busy");
    try {
      await requestRedaction({ threadId, turnId, fingerprint });
    } catch (error) {
      return setState((error as Error).message);
    }
    setState("idle");
    router.refresh();
  };
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={state === "busy"}
      className="rounded border border-red-300 px-2 py-0.5 text-xs text-red-700 hover:bg-red-50 disabled:opacity-50"
    >
      {state === "idle" || state === "busy" ? label : state}
    </button>
  );
}
