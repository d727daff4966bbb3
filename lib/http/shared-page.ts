import "server-only";
import type { SharedPage } from "@/lib/sharing/share-links";

/**
 * The headers of every answer at /s/<token>: kept out of search engines and caches, the token
 * never sent on in a Referer, and nothing but the page itself and its inline styles and data
 * images loaded (no script runs in it).
 */
const SHARED_PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "x-robots-tag": "noindex, nofollow",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
};

const DATE = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** A small page of one sentence, for a link that shows nothing. */
function notice(title: string, sentence: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#27272a}h1{font-size:1.25rem}</style></head><body><main><h1>${title}</h1><p>${sentence}</p></main></body></html>`;
}

/** The answer for a shared page: 200 with the thread, 404 for a link that is not there, 410 for one that expired. */
export function sharedPageResponse(page: SharedPage): Response {
  if (page.kind === "page") return new Response(page.html, { status: 200, headers: SHARED_PAGE_HEADERS });
  if (page.kind === "expired") {
    const when = `${DATE.format(page.expiredAt)} UTC`;
    return new Response(notice("Link expired", `This link expired on ${when}.`), { status: 410, headers: SHARED_PAGE_HEADERS });
  }
  return new Response(notice("Link not found", "This link was taken back or never existed."), {
    status: 404,
    headers: SHARED_PAGE_HEADERS,
  });
}

/** A failure that is not the link's: said as one sentence, the details in the server log. */
export function sharedPageFailure(): Response {
  return new Response(notice("Something went wrong", "This page could not be shown; try again later."), {
    status: 500,
    headers: SHARED_PAGE_HEADERS,
  });
}
