"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { requestSendSecrets } from "@/lib/queries/secrets";

/**
 * The thread's "send secrets to models" setting (PUT /api/threads/:id/secret-settings): off, chat
 * replies and summaries get the redacted text; on, the history as stored. Shows the state to
 * everyone; admins (everyone with sign-in off) may change it, turning it on after a warning.
 */
export function SendSecretsSwitch({
  threadId,
  on,
  secretCount,
  canChange,
}: {
  threadId: string;
  on: boolean;
  secretCount: number;
  canChange: boolean;
}) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "busy" | { failed: string }>("idle");
  const change = async (next: boolean) => {
    if (
      next &&
      !window.confirm(
        `Send this thread's secrets to models?\n\nChat replies and LLM summaries of this thread will send its history as stored, with ${
          secretCount === 1 ? "the secret" : `all ${secretCount} secrets`
        } found in it, to the model's provider. Anything sent cannot be taken back. Leave this off unless the model must see them.`,
      )
    ) {
      return;
    }
    setState("busy");
    try {
      await requestSendSecrets(threadId, next);
      setState("idle");
      router.refresh();
    } catch (error) {
      setState({ failed: (error as Error).message });
    }
  };
  const failed = typeof state === "object" ? state.failed : null;
  return (
    <div
      className={`mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 rounded border p-2 text-sm ${on ? "border-red-300 bg-red-50 text-red-900" : "border-zinc-200 bg-zinc-50 text-zinc-700"}`}
      data-testid="send-secrets"
      data-state={on ? "on" : "off"}
    >
      <p className="min-w-0 flex-1">
        {on ? (
          <>
            <span className="font-medium">Secrets are sent to models:</span> chat replies and LLM summaries of this thread send its history
            as stored, secrets included.
          </>
        ) : (
          <>
            <span className="font-medium">Secrets are not sent to models:</span> chat replies and LLM summaries of this thread get{" "}
            <code className="text-xs">[REDACTED:…]</code> in their place.
          </>
        )}
        {!canChange && " An admin can change this."}
      </p>
      {canChange && (
        <button
          type="button"
          onClick={() => void change(!on)}
          disabled={state === "busy"}
          className={
            on
              ? "rounded border border-zinc-300 bg-white px-2 py-0.5 text-xs text-zinc-800 hover:bg-zinc-50 disabled:opacity-50"
              : "rounded border border-red-300 bg-white px-2 py-0.5 text-xs text-red-700 hover:bg-red-50 disabled:opacity-50"
          }
        >
          {on ? "Stop sending secrets" : "Send secrets to models…"}
        </button>
      )}
      {failed && (
        <p role="alert" className="w-full text-xs text-red-700">
          {failed}
        </p>
      )}
    </div>
  );
}
