/**
 * Client-safe: the export's addresses as the thread header builds them, and the encrypted HTML
 * export (a POST: its password goes in the body, never in an address).
 */
import { apiResponse } from "./api-client";

export type ExportChoice = { format: "html" | "md" | "json"; redact: boolean; subagents: boolean; chain: boolean; includeExpired: boolean };

/** GET /api/threads/:id/export for a choice, only the parameters that differ from the API's defaults (json lossless, html and md redacted). */
export function exportUrl(threadId: string, { format, redact, subagents, chain, includeExpired }: ExportChoice): string {
  const query = new URLSearchParams();
  if (format !== "json") query.set("format", format);
  if (chain) query.set("chain", "1");
  if (subagents && format !== "json") query.set("subagents", "1");
  if (format === "json" ? redact : !redact) query.set("redact", redact ? "1" : "0");
  if (includeExpired) query.set("includeExpired", "1");
  const text = query.toString();
  return `/api/threads/${threadId}/export${text ? `?${text}` : ""}`;
}

/** The encrypted HTML export, as a file to save: throws ApiError (a refused password names the field). */
export async function fetchEncryptedExport(
  threadId: string,
  choice: Omit<ExportChoice, "format"> & { password: string },
): Promise<{ blob: Blob; filename: string }> {
  const response = await apiResponse(`/api/threads/${threadId}/export`, { json: { format: "html", ...choice } }, "text/html");
  const named = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1];
  return { blob: await response.blob(), filename: named ?? `threadline-${threadId}-encrypted.html` };
}
