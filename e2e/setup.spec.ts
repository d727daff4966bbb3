/**
 * The one-time setup page (the setup server: sign-in on, no THREADLINE_ADMIN_EMAIL, nobody yet),
 * in Chromium: the first visit goes to /setup, the person who fills it in becomes the admin and
 * signs in, and afterwards /setup offers nothing. The server starts empty on every run, and this
 * spec uses it up.
 */
import { expect, test } from "@playwright/test";
import { E2E_SERVERS, SETUP_URL } from "../playwright.config";

test.use({ baseURL: SETUP_URL });
test.skip(!E2E_SERVERS.has("setup"), "the setup server is not started (THREADLINE_E2E_SERVERS)");

const FIRST = { name: "Grace", email: "grace@threadline.test", password: "the first admin's password" };

test("the first visit sets up the first admin, once", async ({ page, browser }) => {
  await page.goto("/");
  await expect(page).toHaveURL(`${SETUP_URL}/setup`);
  await expect(page.getByRole("heading", { name: "Set up Threadline" })).toBeVisible();
  // The API is closed meanwhile: nobody to act as.
  expect((await page.request.get("/api/threads")).status()).toBe(401);

  const form = page.getByRole("form", { name: "Create the first admin" });
  await form.getByLabel("Name").fill(FIRST.name);
  await form.getByLabel("Email").fill(FIRST.email);
  await form.getByLabel("Password (8 characters or more)").fill("short");
  await form.getByRole("button", { name: "Create the admin" }).click();
  await expect(form.getByText("At least 8 characters")).toBeVisible(); // the server's answer; the page stays
  await expect(page).toHaveURL(`${SETUP_URL}/setup`);
  await form.getByLabel("Password (8 characters or more)").fill(FIRST.password);
  await form.getByRole("button", { name: "Create the admin" }).click();

  await expect(page).toHaveURL(`${SETUP_URL}/login?setup=done`);
  await expect(page.getByText("The admin is created: sign in.")).toBeVisible();
  await page.getByLabel("Email").fill(FIRST.email);
  await page.getByLabel("Password").fill(FIRST.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${SETUP_URL}/threads`);
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${FIRST.email} (admin)`);

  // Setup is over, signed in or not.
  await page.goto("/setup");
  await expect(page).toHaveURL(`${SETUP_URL}/login`);
  await expect(page.getByRole("form", { name: "Create the first admin" })).toHaveCount(0);
  const stranger = await browser.newContext({ baseURL: SETUP_URL });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto("/");
  await expect(strangerPage).toHaveURL(`${SETUP_URL}/login`);
  await strangerPage.goto("/setup");
  await expect(strangerPage).toHaveURL(`${SETUP_URL}/login`);
  await expect(strangerPage.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(strangerPage.getByRole("form", { name: "Create the first admin" })).toHaveCount(0);
  await stranger.close();
});
