/**
 * The encrypted HTML export, as its reader meets it: a file opened from disk with the network
 * off, a wrong password refused with another try, the right one showing what the plain export
 * shows.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { expect, test } from "./fixtures";

const PASSWORD = "a long shared passphrase";
const EXPORT_URL = `/api/threads/${DEMO_IDS.debug}/export`;

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

test("an encrypted export opens from disk only with its password, then reads exactly as the plain export", async ({
  page,
  request,
}, testInfo) => {
  // GET /api/threads/:id answers {thread, turns}.
  const read = (await (await request.get(`/api/threads/${DEMO_IDS.debug}`)).json()) as {
    thread: { title: string };
    turns: { content: string }[];
  };
  const thread = { title: read.thread.title, turns: read.turns };
  const plain = await request.get(`${EXPORT_URL}?format=html`);
  expect(plain.status()).toBe(200);
  const plainFile = testInfo.outputPath("plain.html");
  writeFileSync(plainFile, await plain.body());

  const response = await request.post(EXPORT_URL, { data: { format: "html", password: PASSWORD } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toContain(`threadline-${DEMO_IDS.debug}-encrypted.html`);
  const encrypted = await response.text();
  // Neither the title nor any turn's text is in the file's bytes.
  expect(encrypted).not.toContain(thread.title);
  for (const turn of thread.turns) expect(encrypted).not.toContain(turn.content.slice(0, 40));
  const encryptedFile = testInfo.outputPath("encrypted.html");
  writeFileSync(encryptedFile, encrypted);

  await test.step("the plain export, for comparison", async () => {
    await openOffline(page, plainFile);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(thread.title);
  });
  const plainText = await page.locator("body").innerText();

  const tried = await openOffline(page, encryptedFile);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Encrypted conversation");

  await test.step("a wrong password says so and keeps the form for another try", async () => {
    await page.getByLabel("Password").fill("not the passphrase");
    await page.getByRole("button", { name: "Open" }).click();
    await expect(page.getByRole("status")).toHaveText("That password does not open this file. Try again.");
    await expect(page.getByLabel("Password")).toBeFocused();
  });

  await test.step("the right password shows the thread as the plain export does", async () => {
    await page.getByLabel("Password").fill(PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(thread.title, { timeout: 15_000 });
    expect(await page.locator("body").innerText()).toBe(plainText);
  });
  expect(tried).toEqual([`file://${encryptedFile}`]);
});

test("an encrypted export without a usable password is refused, naming the field", async ({ request }) => {
  const response = await request.post(EXPORT_URL, { data: { format: "html", password: "short" } });
  expect(response.status()).toBe(400);
  const body = (await response.json()) as { error: { details: { field: string }[] } };
  expect(body.error.details.map((detail) => detail.field)).toContain("password");
});
