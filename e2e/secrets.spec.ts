import { expect, test } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { trackRequests } from "./network";

/**
 * A key saved in Settings stays on the server: it is in no served page, no script the pages load,
 * no API answer and no export. (The seeded server is shared: the key is removed again.)
 */
const SECRET = "sk-e2e-secret-7f3a9c2e1b5d4a60";

test("a saved API key appears in no page, script, API answer or export", async ({ page, request }) => {
  await page.goto("/settings");
  await page.getByLabel("OpenAI-compatible base URL").fill("http://127.0.0.1:9/v1");
  await page.getByLabel("OpenAI-compatible API key").fill(SECRET);
  await page.getByRole("button", { name: "Save model settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();
  try {
    const seen: string[] = [];
    const requests = trackRequests(page);
    page.on("response", async (response) => {
      const type = response.headers()["content-type"] ?? "";
      if (/html|javascript|json|text/.test(type)) seen.push(`${response.url()}\n${await response.text().catch(() => "")}`);
    });
    for (const path of [
      "/settings",
      "/threads",
      `/threads/${DEMO_IDS.debug}`,
      `/threads/${DEMO_IDS.debug}/compact`,
      `/threads/${DEMO_IDS.debug}/budget`,
      `/threads/${DEMO_IDS.debug}/lineage`,
      "/import",
    ]) {
      await page.goto(path);
      // Every answer the page asked for is in, the scripts' own requests too (the live event
      // stream stays open: its events carry no settings).
      await requests.settled();
      expect(await page.content(), path).not.toContain(SECRET);
    }
    await page.goto("/settings");
    await expect(page.getByTestId("compaction-key-status")).toContainText("A key is saved");
    expect(seen.length).toBeGreaterThan(10);
    for (const body of seen) expect(body.includes(SECRET), body.split("\n")[0]).toBe(false);
    for (const url of [`/api/threads/${DEMO_IDS.debug}/export?chain=1`, `/api/threads/${DEMO_IDS.debug}`, "/api/threads"]) {
      expect(await (await request.get(url)).text(), url).not.toContain(SECRET);
    }
  } finally {
    await page.goto("/settings");
    await page.getByLabel("OpenAI-compatible base URL").fill("");
    await page.getByLabel("Remove the saved API key").check();
    await page.getByRole("button", { name: "Save model settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();
  }
});
