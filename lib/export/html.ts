/**
 * A thread (or a chain) as ONE self-contained HTML file a person reads without Threadline: CSS
 * inline, system fonts, no script, no address of anything to fetch, so it reads the same from
 * file:// with the network off. A strict Content-Security-Policy in the head forbids scripts and
 * every fetch (images only as data: URLs, which the export itself never writes), should anything
 * in the content have escaped the escaping and sanitising. Pure: the service hands it the data.
 */
import { displayTitle } from "@/lib/domain/threads/title";
import { plural } from "@/lib/format";
import { threadFacts, turnPreview } from "./facts";
import { EXPORT_CSS } from "./html-style";
import { escapeHtml } from "./html-text";
import { factsHtml, turnAnchor, turnsHtml } from "./html-turns";
import type { ReadableDocument, ReadableThread } from "./types";

/** @internal exported for its tests */
export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The export as an HTML document. */
export function renderHtml(document: ReadableDocument): string {
  const last = document.threads.at(-1);
  const title = displayTitle(last?.thread.title ?? null);
  const chain = document.threads.length > 1;
  const notes = [
    document.shared ? `<p class="shared">Shared read-only from Threadline</p>` : "",
    chain ? `<p class="note">A chain of ${document.threads.length} threads, oldest first.</p>` : "",
    document.redacted
      ? `<p class="note">Secrets found in this conversation are hidden: each shows as [REDACTED:kind:fingerprint], never its value.</p>`
      : "",
  ].join("");
  const header = chain
    ? `<header class="doc-header"><h1>${escapeHtml(title)}</h1>${notes}</header>`
    : `<header class="doc-header"><h1>${escapeHtml(title)}</h1>${notes}${last ? factsHtml(threadFacts(last)) : ""}</header>`;
  const sections = document.threads.map((readable) =>
    chain
      ? `<section><div class="thread-header"><h2 class="thread-title">${escapeHtml(displayTitle(readable.thread.title))}</h2>${factsHtml(threadFacts(readable))}</div>${turnsHtml(readable)}</section>`
      : `<section>${turnsHtml(readable)}</section>`,
  );
  return [
    "<!doctype html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    document.shared ? `<meta name="robots" content="noindex,nofollow">` : "",
    `<meta name="generator" content="Threadline">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${EXPORT_CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    header,
    tableOfContents(document.threads),
    ...sections,
    "</main>",
    "</body>",
    "</html>",
    "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

/** By turn: #N, role, a short preview, each a link to its turn; a chain's grouped by thread. */
function tableOfContents(threads: ReadableThread[]): string {
  const total = threads.reduce((sum, readable) => sum + readable.turns.length, 0);
  if (total === 0) return "";
  const items = (readable: ReadableThread) =>
    readable.turns
      .map(
        (turn) =>
          `<li><a href="#${turnAnchor(turn)}">#${turn.index + 1}</a> <span class="note">${turn.role}</span> ${escapeHtml(turnPreview(turn))}</li>`,
      )
      .join("");
  const list =
    threads.length > 1
      ? threads
          .map((readable) => `<li class="toc-thread">${escapeHtml(displayTitle(readable.thread.title))}<ol>${items(readable)}</ol></li>`)
          .join("")
      : items(threads[0]!);
  return `<nav class="toc" aria-label="Contents"><details open><summary>Contents (${plural(total, "turn")})</summary><ol>${list}</ol></details></nav>`;
}
