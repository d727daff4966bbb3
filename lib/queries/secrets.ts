import { apiFetch } from "./api-client";

/** Client-safe: the secrets API as the thread page calls it (reveal a value, redact in place, the thread's send-to-models setting). */
export type SecretAt = { threadId: string; turnId: string; fingerprint: string };

/** The value behind one mask (POST /api/secrets/reveal); kept by the caller's state only, never in the query cache. */
export async function requestSecretValue(secret: SecretAt): Promise<string> {
  const body = await apiFetch<{ value?: unknown }>("/api/secrets/reveal", { json: secret });
  if (typeof body?.value !== "string") throw new Error("The reveal answered no value.");
  return body.value;
}

/** Redacts one secret of a turn, or every secret of the thread when no turn is given (irreversible). */
export async function requestRedaction(target: { threadId: string; turnId?: string; fingerprint?: string }): Promise<void> {
  await apiFetch("/api/secrets/redact", { json: { ...target, confirm: true } });
}

/** Whether chat replies and summaries of the thread send its secrets to models (on only with confirm). */
export async function requestSendSecrets(threadId: string, sendToModels: boolean): Promise<void> {
  await apiFetch(`/api/threads/${threadId}/secret-settings`, {
    method: "PUT",
    json: sendToModels ? { sendToModels: true, confirm: true } : { sendToModels: false },
  });
}
