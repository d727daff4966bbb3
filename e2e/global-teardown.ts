import { request } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { E2E_SERVERS, EMPTY_URL, IMPORTS_URL, SEEDED_URL } from "../playwright.config";
import { threadIds } from "./fixtures";

/**
 * After the run, while the servers still answer: each holds exactly the threads it started with,
 * so no spec left data behind for another to read (e2e/fixtures.ts deletes what tests create).
 */
export default async function globalTeardown(): Promise<void> {
  const context = await request.newContext();
  const starting = (
    [
      ["seeded", SEEDED_URL, Object.values(DEMO_IDS)],
      ["empty", EMPTY_URL, []],
      ["imports", IMPORTS_URL, []],
    ] as [string, string, string[]][]
  )
    .filter(([name]) => E2E_SERVERS.has(name))
    .map(([, url, ids]) => [url, ids] as [string, string[]]);
  const changes: string[] = [];
  for (const [server, ids] of starting) {
    const present = await threadIds(context, server);
    const added = present.filter((id) => !ids.includes(id));
    const gone = ids.filter((id) => !present.includes(id));
    if (added.length > 0) changes.push(`${server} has ${added.join(", ")}`);
    if (gone.length > 0) changes.push(`${server} lost ${gone.join(", ")}`);
  }
  await context.dispose();
  if (changes.length > 0)
    throw new Error(`specs changed the servers' threads (e2e/fixtures.ts deletes what a test creates):\n${changes.join("\n")}`);
}
