import { DEMO_IDS } from "../lib/demo/demo-data";
import { expect, test } from "./fixtures";

/** Forking from a turn's menu. The seeded server is shared: the fork is deleted again. */
test("fork from a turn, open the fork, see where it came from; the source is unchanged", async ({ page, request, threads }) => {
  const source = DEMO_IDS.debug;
  const exported = await (await request.get(`/api/threads/${source}/export`)).text();
  await page.goto(`/threads/${source}`);
  const turn = page.getByRole("article", { name: "Turn 2" });
  await turn.getByLabel("Turn 2 actions").click();
  await turn.getByRole("button", { name: "Fork from here" }).click();
  await expect(page).not.toHaveURL(new RegExp(source));
  const forkId = page.url().split("/threads/")[1]!.split(/[/?#]/)[0]!;
  threads.track(forkId);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Intermittent 401 right after refresh (fork)");
  await expect(page.getByTestId("forked-from")).toContainText("Intermittent 401 right after refresh at turn 2");
  await expect(page.getByRole("article")).toHaveCount(2);

  await page.getByTestId("forked-from").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/threads/${source}$`));
  await expect(page.getByTestId("forks-made")).toContainText("Intermittent 401 right after refresh (fork) (at turn 2)");
  expect(await (await request.get(`/api/threads/${source}/export`)).text()).toBe(exported);

  // The lineage: the demo chain (analyze -> codereview -> debug) with the fork under the debug thread.
  await page.getByRole("link", { name: "Lineage" }).click();
  const lineage = page.getByTestId("lineage");
  await expect(lineage.getByRole("link")).toHaveCount(4);
  await expect(lineage.getByRole("link", { name: /Why do sessions drop after a token refresh/ })).toBeVisible();
  await expect(lineage.locator("a[aria-current=page]")).toContainText("Intermittent 401 right after refresh");
  await expect(lineage.getByText("fork at turn 2")).toBeVisible();
  await lineage.getByRole("link", { name: /\(fork\)/ }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${forkId}$`));
});
