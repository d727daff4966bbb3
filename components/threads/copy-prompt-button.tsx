"use client";

import { CopyButton } from "@/components/ui/copy-button";

/**
 * Copies the thread as a prompt: the chain's history exactly as `model` would be sent it (the
 * budget preview's text), fetched when clicked.
 */
export function CopyPromptButton({ threadId, model }: { threadId: string; model: string }) {
  const history = async () => {
    const response = await fetch(`/api/threads/${threadId}/context?${new URLSearchParams({ model })}`, { cache: "no-store" });
    const body = await response.json();
    if (!response.ok) throw new Error(body?.error?.message ?? `context ${response.status}`);
    return (body as { text: string }).text;
  };
  return <CopyButton text={history} label="Copy as prompt" />;
}
