// PLACEHOLDER: replaced by h-render's implementation at merge.
import "server-only";
import { exportThread } from "@/lib/db/imports/transfer";

export type ReadableFormat = "html" | "md";
export type ReadableExportOptions = { redact: boolean; subagents: boolean; chain: boolean; includeExpired?: boolean; shared?: boolean };

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A thread as one plain page: its title, then each turn's role and text (redacted through exportThread). */
export async function readableExport(
  threadId: string,
  format: ReadableFormat,
  options: ReadableExportOptions,
): Promise<{ body: string; filename: string }> {
  const document = JSON.parse(
    await exportThread(threadId, { redact: options.redact, chain: options.chain, includeExpired: options.includeExpired }),
  ) as { threads: { title: string | null; turns: { role: string; content: string }[] }[] };
  const threads = document.threads;
  const title = threads.at(-1)?.title ?? "Untitled thread";
  const turns = threads.flatMap((thread) => thread.turns);
  if (format === "md") {
    const body = [`# ${title}`, ...turns.map((turn) => `## ${turn.role}\n\n${turn.content}`)].join("\n\n");
    return { body: `${body}\n`, filename: `${threadId}.md` };
  }
  const sections = turns.map((turn) => `<section><h2>${escapeHtml(turn.role)}</h2><pre>${escapeHtml(turn.content)}</pre></section>`);
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${sections.join("")}</body></html>`;
  return { body, filename: `${threadId}.html` };
}
