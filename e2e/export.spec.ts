/**
 * The readable HTML export as its reader meets it: downloaded from the thread's Export menu, opened
 * from disk with every network request refused, showing the thread's turns; a hostile thread's
 * export stays inert (no dialog, no script, no request); dark mode and print change what they
 * should. The encrypted export's password is checked before anything is sent.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { expect, test } from "./fixtures";

/** Opens a file from disk with every request but the file itself refused; answers the requests tried. */
async function openOffline(page: Page, file: string): Promise<string[]> {
  const tried: string[] = [];
  await page.route("**/*", (route) => {
    tried.push(route.request().url());
    return route.request().url() === `file://${file}` ? route.continue() : route.abort();
  });
  await page.goto(`file://${file}`);
  return tried;
}

/** A turn's words as the export shows them: letters and digits, at least 4 of them, the first few. */
const wordsOf = (content: string) => (content.match(/[A-Za-z0-9]{4,}/g) ?? []).slice(0, 6);

test("the HTML export from the Export menu opens from disk offline and shows the thread's turns", async ({ page, request }, testInfo) => {
  const { thread, turns } = (await (await request.get(`/api/threads/${DEMO_IDS.debug}`)).json()) as {
    thread: { title: string };
    turns: { index: number; role: string; content: string }[];
  };
  await page.goto(`/threads/${DEMO_IDS.debug}`);
  const menu = page.getByTestId("export-menu");
  await menu.locator("summary").click();

  await test.step("the encrypted export refuses a short password before sending anything", async () => {
    await menu.getByRole("button", { name: "Encrypted HTML…" }).click();
    const password = menu.getByLabel("Password for the encrypted HTML");
    await expect(password).toBeFocused();
    await password.fill("short");
    await menu.getByRole("button", { name: "Download encrypted HTML" }).click();
    await expect(menu.getByRole("alert")).toHaveText("The password must be at least 8 characters.");
    await password.fill("a long shared passphrase");
    const [encrypted] = await Promise.all([page.waitForEvent("download"), password.press("Enter")]);
    expect(encrypted.suggestedFilename()).toBe(`threadline-${DEMO_IDS.debug}-encrypted.html`);
  });

  const [download] = await Promise.all([page.waitForEvent("download"), menu.getByRole("link", { name: /^Export HTML/ }).click()]);
  expect(download.suggestedFilename()).toBe(`threadline-${DEMO_IDS.debug}-redacted.html`);
  const file = testInfo.outputPath("thread.html");
  await download.saveAs(file);

  const reader = await page.context().newPage();
  const tried = await openOffline(reader, file);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(thread.title);
  await expect(reader.getByRole("article")).toHaveCount(turns.length);
  for (const turn of turns) {
    const article = reader.getByRole("article", { name: `Turn ${turn.index + 1}` });
    await expect(article.locator(".role")).toHaveText(new RegExp(turn.role, "i"));
    const text = await article.innerText();
    for (const word of wordsOf(turn.content)) expect(text, `turn ${turn.index + 1}`).toContain(word);
  }
  await test.step("the contents link to each turn", async () => {
    await reader
      .getByRole("navigation", { name: "Contents" })
      .getByRole("link", { name: `#${turns.length}` })
      .click();
    expect(reader.url()).toMatch(/#turn-/);
  });
  expect(tried).toEqual([`file://${file}`]);
});

test("a hostile thread's export stays inert from disk: no dialog, no script, no request; dark mode and print apply", async ({
  page,
  request,
  threads,
}, testInfo) => {
  const hostile = await threads.create({ toolName: "e2e", title: `<img src=x onerror="alert('title')"> Hostile export` });
  await threads.appendTurn(hostile.id, {
    role: "user",
    content: [
      "Look at this: <script>alert('content')</script>",
      '<img src="http://127.0.0.1:9/pixel.png" onerror="alert(1)">',
      "[a link](javascript:alert('link')) and ![an image](http://127.0.0.1:9/image.png)",
      "</style><style>body { display: none }</style>",
      '<iframe src="http://127.0.0.1:9/frame"></iframe>',
    ].join("\n\n"),
  });
  await threads.appendTurn(hostile.id, {
    role: "assistant",
    content: "Nothing ran.",
    parts: [
      { type: "thinking", text: "Private deliberation, folded" },
      { type: "text", text: "Nothing ran." },
    ],
  });
  const response = await request.get(`/api/threads/${hostile.id}/export?format=html`);
  expect(response.status()).toBe(200);
  const file = testInfo.outputPath("hostile.html");
  writeFileSync(file, await response.body());

  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const tried = await openOffline(page, file);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`<img src=x onerror="alert('title')"> Hostile export`);
  const first = page.getByRole("article", { name: "Turn 1" });
  await expect(first).toContainText("<script>alert('content')</script>");
  await expect(first).toContainText("[image: an image — http://127.0.0.1:9/image.png]");
  await expect(first.getByText("a link")).toBeVisible();
  await expect(page.locator("body")).toBeVisible();
  expect(await page.locator("script, iframe, img, a[href^='javascript']").count()).toBe(0);
  await page.waitForTimeout(300); // a script or an onerror would have run by now
  expect(dialogs).toEqual([]);
  expect(tried).toEqual([`file://${file}`]);

  await test.step("dark mode changes the background", async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).not.toBe(light);
  });

  await test.step("folds are closed on screen and printed open", async () => {
    const thinking = page.getByText("Private deliberation, folded");
    await page.emulateMedia({ media: "screen" });
    await expect(thinking).toBeHidden();
    await page.emulateMedia({ media: "print" });
    await expect(thinking).toBeVisible();
  });
});
