/**
 * Share links on the auth server (sign-in on), in Chromium: the admin shares a thread holding a
 * secret through the Share dialog and copies the link; a browser with no cookies opens it and
 * reads the thread, the secret masked, and reaches no API; the admin revokes the link in Settings
 * and the visitor's reload is 404.
 */
import { expect, test, type Page } from "@playwright/test";
import { secretSamples } from "../lib/domain/testing/secret-samples";
import { AUTH_URL, E2E_SERVERS } from "../playwright.config";
import { expectHydrated } from "./fixtures";
import { signedInAdmin } from "./page-helpers";

test.use({ baseURL: AUTH_URL });
test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started (THREADLINE_E2E_SERVERS)");

const sample = secretSamples(53).find((s) => s.rule === "github-pat")!;

/** A thread made by the signed-in admin, with a turn that holds a secret; answers its id. */
async function threadWithSecret(admin: Page, title: string): Promise<string> {
  const created = await admin.request.post("/api/threads", { data: { toolName: "e2e", title } });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { thread: { id: string } }).thread.id;
  for (const turn of [
    { role: "user", content: "Publish the release notes for 4.2" },
    { role: "assistant", content: `Published with the deploy token\n${sample.line(sample.value)}` },
  ]) {
    const appended = await admin.request.post(`/api/threads/${id}/turns`, { data: turn });
    expect(appended.status(), await appended.text()).toBe(201);
  }
  return id;
}

test("a shared link shows the thread to a visitor without an account, secrets masked, until the admin revokes it", async ({ browser }) => {
  const admin = await signedInAdmin(browser, "10.40.0.1");
  await admin.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const title = `Release notes ${Date.now()}`;
  const threadId = await threadWithSecret(admin, title);
  const visitor = await browser.newContext({ baseURL: AUTH_URL });
  try {
    await admin.goto(`/threads/${threadId}`);
    const share = admin.getByRole("button", { name: "Share…" });
    await expectHydrated(share);
    await share.click();
    const dialog = admin.getByRole("dialog", { name: "Share this thread" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("No links to this thread yet.")).toBeVisible();
    await dialog.getByLabel("Expires after").selectOption({ label: "1 day" });
    await dialog.getByRole("button", { name: "Create link" }).click();
    const field = dialog.getByLabel(/^Share link/);
    await expect(field).toHaveValue(new RegExp(`^${AUTH_URL}/s/[A-Za-z0-9_-]{43}$`));
    const url = await field.inputValue();
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(dialog.getByText("This is the only time the link is shown")).toBeVisible();
    // The test server listens on 127.0.0.1: the dialog says the link reaches no one else.
    await expect(dialog.getByTestId("share-local-only")).toContainText("opens here and nowhere else");
    await expect(dialog.getByTestId("share-link-row")).toHaveCount(1);
    // Escape closes it, focus goes back to the button, and the link is not shown again.
    await admin.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(share).toBeFocused();
    await share.click();
    await expect(dialog.getByTestId("share-url")).toHaveCount(0);
    await expect(dialog.getByTestId("share-link-row")).toHaveCount(1);
    await admin.keyboard.press("Escape");

    // A browser with no cookies opens the link.
    expect(await visitor.cookies()).toEqual([]);
    const page = await visitor.newPage();
    const response = (await page.goto(url))!;
    expect(response.status()).toBe(200);
    expect(response.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    expect(response.headers()["referrer-policy"]).toBe("no-referrer");
    await expect(page).toHaveURL(url); // not sent to /login
    await expect(page.getByText(title).first()).toBeVisible();
    await expect(page.getByText("Publish the release notes for 4.2", { exact: true })).toBeVisible();
    const html = await page.content();
    expect(html).not.toContain(sample.value);
    expect(html).toContain("[REDACTED:");
    // From the shared page's origin the API answers 401 (the page's own policy lets no script fetch at all).
    expect((await visitor.request.get("/api/threads")).status()).toBe(401);
    await expect(page.evaluate(() => fetch("/api/threads").then((r) => r.status))).rejects.toThrow();
    const unrestricted = await browser.newContext({ baseURL: AUTH_URL, bypassCSP: true });
    const probe = await unrestricted.newPage();
    await probe.goto(url);
    expect(await probe.evaluate(() => fetch("/api/threads").then((r) => r.status))).toBe(401);
    await unrestricted.close();

    // The admin revokes it in Settings; the visitor's reload is 404.
    await admin.goto("/settings");
    const section = admin.getByRole("region", { name: "Share links" });
    const row = section.getByTestId("share-link-row").filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await expect(row.locator('td[data-label="Views"]')).toHaveText("2"); // the visitor's and the probe's
    await expect(row.locator('td[data-label="By"]')).not.toHaveText("—");
    await expectHydrated(row.getByRole("button", { name: /^Revoke/ }));
    admin.once("dialog", (confirm) => void confirm.accept());
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await expect(row).toHaveCount(0);
    await expect(section.getByText("Link revoked")).toBeVisible();
    const gone = (await page.reload())!;
    expect(gone.status()).toBe(404);
    expect(gone.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await expect(page.getByText("This link was taken back or never existed.")).toBeVisible();
    await expect(page.getByText("Publish the release notes for 4.2")).toHaveCount(0);
  } finally {
    await visitor.close();
    await admin.request.delete(`/api/threads/${threadId}`);
    await admin.context().close();
  }
});
