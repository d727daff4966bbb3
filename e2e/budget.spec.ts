import { expect, test } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";

test("the budget page shows what a model would be sent, and updates in place", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/threads/${DEMO_IDS.debug}`);
  await page.getByRole("link", { name: "Budget" }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${DEMO_IDS.debug}/budget`));

  await test.step("defaults to the thread's last model, counted exactly", async () => {
    await expect(page.getByRole("combobox", { name: "Model" })).toHaveValue("gpt-5");
    await expect(page.getByTestId("exactness")).toHaveText("exact");
    await expect(page.getByText("counted with OpenAI o200k_base")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Files: 4 embedded, 0 skipped" })).toBeVisible();
    const text = page.getByTestId("prompt-text");
    await expect(text).toContainText("=== CONVERSATION HISTORY (CONTINUATION) ===");
    await expect(text).toContainText(`Thread: ${DEMO_IDS.debug}`);
    await expect(text).toContainText("--- BEGIN FILE: src/auth/session.ts ---");
    await expect(page.getByRole("heading", { name: "Turns: 8 sent, 0 cut" })).toBeVisible();
  });

  // A marker on window survives only if the page is never reloaded.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await test.step("switching the model re-counts with its tokenizer", async () => {
    await page.getByRole("combobox", { name: "Model" }).fill("claude-sonnet-4-5");
    await expect(page.getByTestId("exactness")).toHaveText("estimate");
    await expect(page.getByText("claude-sonnet-4-5 (anthropic)")).toBeVisible();
    await expect(page).toHaveURL(/model=claude-sonnet-4-5/);
  });

  await test.step("PAL mode shows PAL's exact layout", async () => {
    await page.getByText("PAL (identical prompt)").click();
    await expect(page.getByTestId("prompt-text")).toContainText("--- Turn 1 (Agent using analyze) ---");
    await expect(page.getByTestId("prompt-text")).toContainText("--- Turn 2 (gemini-2.5-pro using analyze via google) ---");
    await expect(page.getByText("counted with PAL estimate")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });

  await test.step("the text is copyable", async () => {
    await page.getByRole("button", { name: "Copy text" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.getByTestId("prompt-text").textContent());
  });

  await test.step("a small window cuts the oldest turns", async () => {
    await page.goto(`/threads/${DEMO_IDS.longSession}/budget?model=gpt-4o-mini`);
    await page.getByLabel("or context window").fill("16000");
    await page.getByLabel("or context window").press("Enter");
    // The heading of the full window ("200 sent, 0 cut") is there before the new window's
    // answer arrives: wait for that answer, not just for a heading.
    const turnsHeading = page.getByRole("heading", { name: /Turns: \d+ sent, \d+ cut/ });
    await expect(turnsHeading).toHaveText(/Turns: \d+ sent, [1-9]\d* cut/);
    const heading = await turnsHeading.textContent();
    const [, sent, cut] = heading?.match(/(\d+) sent, (\d+) cut/) ?? [];
    expect(Number(sent) + Number(cut)).toBe(200);
    expect(Number(cut)).toBeGreaterThan(0);
    await expect(page.getByRole("cell", { name: "Gemini CLI" })).toBeVisible();
  });
});

test("an unknown model names close matches", async ({ page }) => {
  await page.goto(`/threads/${DEMO_IDS.debug}/budget`);
  await page.getByRole("combobox", { name: "Model" }).fill("gpt5");
  await page.getByRole("combobox", { name: "Model" }).press("Enter");
  await expect(page.locator("main").getByRole("alert")).toContainText('unknown model "gpt5". Close matches:');
  await expect(page.locator("main").getByRole("alert")).toContainText("gpt-5");
  // The orchestrator handoff's section, which counts with the same model, says so too, without a second alert.
  await expect(page.getByTestId("handoff-error")).toContainText('unknown model "gpt5"');
  await expect(page.locator("main").getByRole("alert")).toHaveCount(1);
});

test("a custom model from Settings can be previewed", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.getByTestId("setting-max-turns")).toContainText("50 turns (default)");
  const form = page.getByRole("form", { name: "Add a custom model" });
  await form.getByLabel("Name").fill("e2e-local-32k");
  await form.getByLabel("Context window (tokens)").fill("32768");
  await form.getByLabel("Tokenizer").selectOption("llama3");
  // Prices are optional, both or neither; given, its responses are priced with them.
  await form.getByLabel("Input price, USD per million tokens (optional)").fill("0.5");
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(form.getByText("give both prices or neither")).toBeVisible();
  await form.getByLabel("Name").fill("e2e-local-32k");
  await form.getByLabel("Context window (tokens)").fill("32768");
  await form.getByLabel("Tokenizer").selectOption("llama3");
  await form.getByLabel("Input price, USD per million tokens (optional)").fill("0.5");
  await form.getByLabel("Output price, USD per million tokens (optional)").fill("1.5");
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(form.getByRole("status")).toHaveText("Added e2e-local-32k.");
  await expect(page.getByRole("cell", { name: "e2e-local-32k", exact: true })).toBeVisible();
  await expect(
    page
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "e2e-local-32k", exact: true }) })
      .first(),
  ).toContainText("$0.5 / $1.5");

  await form.getByLabel("Name").fill("e2e-local-32k");
  await form.getByLabel("Context window (tokens)").fill("12");
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(form.getByText("must be at least 1000")).toBeVisible();

  await page.goto(`/threads/${DEMO_IDS.debug}/budget?model=e2e-local-32k`);
  await expect(page.getByText("e2e-local-32k (custom)")).toBeVisible();
  await expect(page.getByRole("heading", { name: /of 33k tokens/ })).toBeVisible();

  await page.goto("/settings");
  await page.getByRole("button", { name: "Remove e2e-local-32k" }).click();
  await expect(page.getByRole("cell", { name: "e2e-local-32k", exact: true })).toHaveCount(0);
});

test("the thread list shows the thread's tokens, the thread page real token counts per turn, and budget rows link to their turn", async ({
  page,
}) => {
  await page.goto("/threads");
  const row = page.getByRole("link", { name: /Intermittent 401 right after refresh/ }).locator("xpath=ancestor::li[1]");
  // The row's one figure: the tokens its responses processed (lib/domain/usage/thread-figures.ts).
  await expect(row.getByTestId("figure-tokens")).toHaveText(/^~?[\d.,]+[kM]? tokens?$/);
  await expect(row.getByTestId("figure-tokens")).toHaveAttribute("title", /tokens the model responses processed/);

  await page.goto(`/threads/${DEMO_IDS.debug}`);
  const turn = page.getByRole("article", { name: "Turn 1" });
  await expect(turn.getByTestId("token-count")).toHaveText(/^\d+ tokens$/);
  await expect(turn.getByTestId("token-count")).toHaveAttribute("title", /counted with OpenAI o200k_base/);

  await page.goto(`/threads/${DEMO_IDS.debug}/budget?model=gpt-5`);
  await page.getByRole("checkbox", { name: "Largest first" }).uncheck();
  await page.getByTestId("turn-table").getByRole("link", { name: "#1", exact: true }).click();
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]+#turn-[0-9a-f-]+$/);
});

test("the cumulative chart names its axes, and no two threshold labels overlap (a 400k window)", async ({ page }) => {
  await page.goto(`/threads/${DEMO_IDS.debug}/budget?model=gpt-5&contextWindow=400000`);
  const chart = page.getByTestId("cumulative-chart");
  await expect(chart.getByTestId("x-axis-title")).toHaveText("Turn");
  await expect(chart.getByTestId("y-axis-title")).toHaveText("Cumulative tokens");
  // At 400k, Claude Code (367k), Codex (360k), OpenCode (380k) and Pi (383,616) are within 24k.
  const labels = chart.getByTestId("threshold-label");
  await expect(labels).toHaveText(["Claude Code", "Codex", "Gemini CLI", "OpenCode", "Pi", "Aider"]);
  const boxes = await labels.evaluateAll((elements) =>
    elements.map(
      (el) =>
        ({ name: el.textContent, ...el.getBoundingClientRect().toJSON() }) as {
          name: string;
          top: number;
          bottom: number;
          left: number;
          right: number;
        },
    ),
  );
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const apart = a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left;
      expect(apart, `${a.name} and ${b.name} overlap`).toBe(true);
    }
  }
});
