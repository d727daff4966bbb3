/**
 * Waiting for a page's requests to be done, for specs that check every answer a page loaded.
 * Playwright's "networkidle" never comes on a page that holds the live event stream open (GET
 * /api/events lasts as long as the page), so this counts every other request from the moment it
 * is attached: `settled()` waits for the load event, then until none of them is in flight.
 */
import type { Page, Request } from "@playwright/test";
import { expect } from "@playwright/test";

const isEventStream = (url: string) => new URL(url).pathname === "/api/events";

export function trackRequests(page: Page) {
  const inFlight = new Set<Request>();
  page.on("request", (request) => void (!isEventStream(request.url()) && inFlight.add(request)));
  page.on("requestfinished", (request) => void inFlight.delete(request));
  page.on("requestfailed", (request) => void inFlight.delete(request));
  return {
    /**
     * Resolves once the page has loaded and no request but the event stream has been in flight
     * for `quietMs` (the requests that scripts start once the page is hydrated come within it).
     */
    async settled(quietMs = 500): Promise<void> {
      await page.waitForLoadState("load");
      let quietSince = Date.now();
      await expect
        .poll(
          () => {
            if (inFlight.size > 0) quietSince = Date.now();
            return Date.now() - quietSince >= quietMs;
          },
          { message: `requests still in flight: ${[...inFlight].map((r) => r.url()).join(", ")}`, intervals: [50] },
        )
        .toBe(true);
    },
  };
}

/**
 * Resolves once the page's live event stream has been answered (its EventSource is open):
 * call it before the navigation that opens the stream, await it after.
 */
export function eventStreamOpened(page: Page): Promise<void> {
  return page
    .waitForResponse(
      (response) =>
        isEventStream(response.url()) &&
        response.status() === 200 &&
        (response.headers()["content-type"] ?? "").startsWith("text/event-stream"),
    )
    .then(() => undefined);
}
