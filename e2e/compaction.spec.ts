import { DEMO_IDS } from "../lib/demo/demo-data";
import { expect, test } from "./fixtures";

/**
 * The compaction workbench on the demo's 200-turn session: preview, edit the summary, apply as a
 * revision, follow the lineage both ways, undo. The seeded server is shared with other specs, so
 * whatever this spec creates is deleted again, even when it fails.
 */
const ORIGINAL = DEMO_IDS.longSession;

const number = (text: string | null) => Number((text ?? "").replace(/[^0-9]/g, ""));

test("preview -> edit the summary -> apply -> lineage both ways -> undo", async ({ page, request, threads }) => {
  const exportedBefore = await (await request.get(`/api/threads/${ORIGINAL}/export`)).text();
  await page.goto(`/threads/${ORIGINAL}`);
  await page.getByRole("link", { name: "Compact" }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${ORIGINAL}/compact$`));

  // 200 turns: the sliding window is proposed, over 40 turns, with the offline summariser.
  await expect(page.getByRole("radio", { name: /Sliding window/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Extractive (offline)" })).toBeChecked();
  const before = page.getByTestId("tokens-before");
  const after = page.getByTestId("tokens-after");
  await expect(after).toBeVisible();
  expect(number(await after.textContent())).toBeLessThan(number(await before.textContent()));
  // The list shows the rows in view (a long session replaces thousands); its heading counts them all.
  await expect(page.getByRole("heading", { name: "Replaced: 178 turns" })).toBeVisible();
  await expect(page.getByTestId("replaced-turns").getByRole("listitem").first()).toContainText("#3");
  await expect(page.getByTestId("kept-verbatim")).toContainText("#1-#2 before the summary, #181-#200 after it");

  // A narrower window replaces more; the summary follows.
  await page.getByLabel("Max turns").fill("10");
  await expect(page.getByRole("heading", { name: "Replaced: 193 turns" })).toBeVisible();
  const summary = page.getByRole("textbox", { name: "Summary" });
  await expect(summary).toHaveValue(/User requests/);
  await expect(summary).toHaveValue(/docs\/billing-migration\/schema\.md/);
  await expect(page.getByTestId("lost-references")).toHaveCount(0);

  // Edit it: the preview re-measures it, and lists the file paths the shorter text would lose.
  const measured = number(await after.textContent());
  await summary.fill("We migrated billing to PostgreSQL step by step. Decision: keep the ledger export until the cut-over.");
  await expect(page.getByTestId("lost-references")).toContainText("docs/billing-migration/schema.md");
  await expect.poll(async () => number(await after.textContent())).toBeLessThan(measured);
  await page.getByRole("button", { name: "Reset to the generated summary" }).click();
  await expect(summary).toHaveValue(/User requests/);
  await expect(page.getByTestId("lost-references")).toHaveCount(0);
  await summary.press("End");
  await summary.pressSequentially("\nDecision noted by the reviewer.");

  await page.getByRole("button", { name: "Apply as a new revision" }).click();
  await expect(page).not.toHaveURL(new RegExp(ORIGINAL));
  const revisionId = page.url().split("/threads/")[1]!.split(/[/?#]/)[0]!;
  threads.track(revisionId); // undone by the test itself unless it fails first

  // The revision: linked to its original, its summary marked and kept as edited.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pairing: migrating the billing service to PostgreSQL (compacted)");
  const from = page.getByTestId("compacted-from");
  await expect(from).toContainText("sliding window, extractive, summary edited");
  await expect(from.getByRole("link", { name: "Pairing: migrating the billing service to PostgreSQL" })).toBeVisible();
  await expect(page.getByTestId("compaction")).toContainText(/Compacted \(window · extractive\) · [\d,]+ → [\d,]+ tokens/);
  await expect(page.getByText("Decision noted by the reviewer.")).toBeVisible();

  // The chain view shows the lineage too; the original lists its revision.
  await page.getByRole("link", { name: "Chain" }).click();
  await expect(page.getByTestId("chain-compactions")).toContainText("compacted into");
  await page.goto(`/threads/${ORIGINAL}`);
  await expect(page.getByTestId("compacted-revisions").getByRole("link")).toHaveText(
    "Pairing: migrating the billing service to PostgreSQL (compacted)",
  );
  expect(await (await request.get(`/api/threads/${ORIGINAL}/export`)).text()).toBe(exportedBefore);

  // Undo is one click from the revision, and lands on the untouched original.
  await page.goto(`/threads/${revisionId}`);
  await page.getByRole("button", { name: "Undo compaction" }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${ORIGINAL}$`));
  await expect(page.getByTestId("compacted-revisions")).toHaveCount(0);
  expect((await request.get(`/api/threads/${revisionId}`)).status()).toBe(404);
  expect(await (await request.get(`/api/threads/${ORIGINAL}/export`)).text()).toBe(exportedBefore);
});

test("a compaction that would not shrink the history is refused with the reason, and nothing is applied", async ({ page }) => {
  await page.goto(`/threads/${DEMO_IDS.analyze}/compact`);
  await page.getByRole("radio", { name: /Range/ }).check();
  await page.getByRole("combobox", { name: /^Summarise/ }).selectOption("from");
  await page.getByRole("spinbutton", { name: /^Turn/ }).fill("2");
  const summary = page.getByRole("textbox", { name: "Summary" });
  await expect(summary).toHaveValue(/\S/);
  await summary.fill("word ".repeat(3_000));
  await expect(page.getByTestId("refusal")).toContainText("nothing to gain");
  await expect(page.getByRole("button", { name: "Apply as a new revision" })).toBeDisabled();
});

test("the LLM summariser: configured in Settings, run in the background, found again after leaving the page, applied", async ({
  page,
  threads,
}) => {
  const { startFakeOpenAi, answer } = await import("../lib/testing/fake-openai");
  const fake = await startFakeOpenAi(answer("The session was about refreshing tokens in src/auth/session.ts."));
  // The job stays on the thread it summarised: a copy, so the demo thread has none.
  const analyze = await threads.copyOf(DEMO_IDS.analyze);
  try {
    await page.goto("/settings");
    await page.getByLabel("Compaction model").fill("openai-compatible:local-test");
    await page.getByLabel("OpenAI-compatible base URL").fill(fake.baseUrl);
    await page.getByRole("button", { name: "Save model settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();

    await page.goto(`/threads/${analyze}/compact`);
    await page.getByRole("radio", { name: /Full compact/ }).check();
    await page.getByText("LLM", { exact: true }).click();
    await expect(page.getByLabel("LLM model (provider:model)")).toHaveValue("openai-compatible:local-test");
    await page.getByLabel("Focus instructions (optional)").fill("the refresh bug");
    await page.getByRole("button", { name: "Summarise with the LLM" }).click();
    await expect(page.getByTestId("job-status")).toContainText("Summary ready");
    await expect(page.getByRole("textbox", { name: "Summary" })).toHaveValue(
      "The session was about refreshing tokens in src/auth/session.ts.",
    );
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.model).toBe("local-test");
    expect(fake.requests[0]!.body.messages.at(-1)!.content).toContain("Focus on: the refresh bug");

    // Leave and come back: the finished summary is still there, not asked for again.
    await page.goto(`/threads/${analyze}`);
    await page.goto(`/threads/${analyze}/compact`);
    await expect(page.getByRole("radio", { name: "LLM" })).toBeChecked();
    await expect(page.getByRole("textbox", { name: "Summary" })).toHaveValue(
      "The session was about refreshing tokens in src/auth/session.ts.",
    );
    await page.getByRole("button", { name: "Apply as a new revision" }).click();
    await expect(page).not.toHaveURL(/\/compact$/);
    const revisionId = page.url().split("/threads/")[1]!.split(/[/?#]/)[0]!;
    threads.track(revisionId);
    await expect(page.getByTestId("compacted-from")).toContainText("full compact, LLM openai-compatible:local-test");
    expect(fake.requests).toHaveLength(1);
  } finally {
    await fake.close();
    await page.goto("/settings");
    await page.getByLabel("Compaction model").fill("");
    await page.getByLabel("OpenAI-compatible base URL").fill("");
    await page.getByRole("button", { name: "Save model settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();
  }
});

test("a turn's menu opens the workbench preset to summarise up to it", async ({ page }) => {
  await page.goto(`/threads/${DEMO_IDS.longSession}`);
  const turn = page.getByRole("article", { name: "Turn 30" });
  await turn.getByLabel("Turn 30 actions").click();
  await turn.getByRole("link", { name: "Summarise up to here" }).click();
  await expect(page).toHaveURL(/\/compact\?strategy=range&direction=up-to&at=29$/);
  await expect(page.getByRole("radio", { name: /Range/ })).toBeChecked();
  await expect(page.getByRole("spinbutton", { name: /^Turn/ })).toHaveValue("30");
  await expect(page.getByTestId("range-turn")).toContainText("#30");
  await expect(page.getByRole("heading", { name: "Replaced: 30 turns" })).toBeVisible();
  await expect(page.getByTestId("kept-verbatim")).toContainText("#31-#200 after it");
});
