"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { apiFetch } from "@/lib/queries/api-client";

/**
 * Copies the thread as a prompt: the chain's history exactly as `model` would be sent it (the
 * budget preview's text), fetched when clicked.
 */
export function CopyPromptButton({ threadId, model }: { threadId: string; model: string }) {
  const history = async () => {
    const body = await apiFetch<{ text: string }>(`/api/threads/${threadId}/context?${new URLSearchParams({ model })}`);
    return body.text;
  };
  return <CopyButton text={history} label="Copy as prompt" />;
}
