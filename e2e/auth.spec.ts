/**
 * Sign-in on (the auth server, THREADLINE_AUTH=on), in Chromium: a page sends you to /login and
 * back; an admin creates an API token in Settings, a real MCP client (the SDK's Streamable HTTP
 * transport) uses it, the admin revokes it, and the same client is refused at once; an admin adds
 * a member, who sees no admin controls and is refused admin actions, resets their password and
 * removes them; single sign-on through a real OpenID provider (oidc-provider, started with the
 * server) makes a member with the provider's email.
 *
 * Sign-in allows 5 attempts a minute per client address: the tests below give each browser an
 * address of its own, as different people would have, in X-Forwarded-For, which this server
 * believes because it trusts 127.0.0.1 as a proxy (THREADLINE_TRUSTED_PROXIES in
 * playwright.config.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { AUTH_ADMIN, AUTH_URL, E2E_SERVERS, OIDC_ACCOUNT, OIDC_NAME, OIDC_URL } from "../playwright.config";
import { pricedDocument } from "../lib/testing/priced-document";
import { expectHydrated } from "./fixtures";
import { person, signIn } from "./page-helpers";

test.use({ baseURL: AUTH_URL });
test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started (THREADLINE_E2E_SERVERS)");

async function mcpClient(token: string | null): Promise<Client> {
  const client = new Client({ name: "threadline-e2e", version: "0.0.0" });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${AUTH_URL}/api/mcp`), { requestInit: { headers } }));
  return client;
}

test("a page without a session goes to /login and back; the REST API answers 401", async ({ page, request }) => {
  const api = await request.get("/api/threads");
  expect(api.status()).toBe(401);
  expect((await api.json()).error.code).toBe("unauthorized");

  await page.goto("/settings");
  await expect(page).toHaveURL(`${AUTH_URL}/login?next=%2Fsettings`);
  await page.getByLabel("Email").fill(AUTH_ADMIN.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await page.getByLabel("Password").fill(AUTH_ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${AUTH_ADMIN.email} (admin)`);
  const cookie = (await page.context().cookies()).find((c) => c.name === "better-auth.session_token");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/threads");
  await expect(page).toHaveURL(/\/login\?next=%2Fthreads$/);
});

test("an API token made in Settings works for an MCP client until it is revoked", async ({ page }) => {
  await expect(mcpClient(null)).rejects.toThrow(/401|unauthorized/i);

  await page.goto("/login?next=%2Fsettings");
  await page.getByLabel("Email").fill(AUTH_ADMIN.email);
  await page.getByLabel("Password").fill(AUTH_ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const name = `mcp agent ${Date.now()}`;
  const form = page.getByRole("form", { name: "Create an API token" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^tl_[A-Za-z0-9_-]{43}$/);
  const row = page.getByTestId("api-token-row").filter({ hasText: name });
  await expect(row).toContainText(token.slice(0, 7));

  const client = await mcpClient(token);
  const tools = await client.listTools();
  expect(tools.tools.map((t) => t.name)).toContain("list_threads");
  const listed = await client.callTool({ name: "list_threads", arguments: {} });
  expect(listed.isError).toBeFalsy();

  // The list shows the use; a reload shows the token no more.
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await expect(row.locator("td").nth(5)).not.toHaveText("never"); // name, person, starts, created, expires, last used

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByText(`Revoked ${name}.`)).toBeVisible();
  await expect(row).toHaveCount(0);

  await expect(client.listTools()).rejects.toThrow(/401|unauthorized/i);
  await expect(mcpClient(token)).rejects.toThrow(/401|unauthorized/i);
  await client.close();
});

test("an admin adds a member, resets their password and removes them; the member sees and may use no admin controls", async ({
  browser,
}) => {
  const member = { name: "Mia Member", email: `mia-${Date.now()}@threadline.test`, password: "member password one" };
  const admin = await person(browser, "10.20.0.1");
  await signIn(admin, AUTH_ADMIN);
  await expect(admin).toHaveURL(/\/settings$/);
  const add = admin.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Name").fill(member.name);
  await add.getByLabel("Email").fill(member.email);
  await add.getByLabel("Password").fill(member.password);
  await add.getByLabel("Role").selectOption("member");
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(add.getByText(`Added ${member.email}.`)).toBeVisible();
  const row = admin.getByTestId("person-row").filter({ hasText: member.email });
  await expect(row).toContainText("member");
  await expect(row).toContainText("password");
  await admin.goto("/sources");
  await expect(admin.getByRole("button", { name: "Sync now" })).toBeVisible(); // an admin's
  await admin.goto("/settings");

  // The member signs in and is shown no admin controls.
  const mia = await person(browser, "10.20.0.2");
  await signIn(mia, member);
  await expect(mia).toHaveURL(/\/settings$/);
  await expect(mia.getByTestId("signed-in-as")).toHaveText(member.email);
  await expect(mia.getByRole("heading", { name: "API tokens" })).toBeVisible(); // theirs to manage
  await expect(mia.getByRole("heading", { name: "Models and providers" })).toBeVisible(); // shown, read-only
  await expect(mia.getByRole("note")).toContainText("You are a member");
  await expect(mia.getByRole("heading", { name: "People" })).toHaveCount(0);
  for (const form of ["Add a person", "Model settings", "Add a custom model"])
    await expect(mia.getByRole("form", { name: form })).toHaveCount(0);
  await expect(mia.getByRole("button", { name: /^(Save|Add model|Add person|Reset|Remove)/ })).toHaveCount(0);
  // Their only choices: who reads their own threads.
  await expect(mia.getByRole("combobox")).toHaveCount(
    await mia.getByRole("region", { name: "Who reads your threads" }).getByRole("combobox").count(),
  );
  await mia.goto("/sources");
  await expect(mia.getByTestId("source-folder")).toHaveCount(1); // the followed folder, shown
  await expect(mia.getByRole("button", { name: "Sync now" })).toHaveCount(0);

  // Asking the server directly is refused.
  const sync = await mia.request.post("/api/sources/sync", { headers: { origin: AUTH_URL }, data: {} });
  expect(sync.status()).toBe(403);
  expect((await sync.json()).error.code).toBe("forbidden");
  expect((await admin.request.post("/api/sources/sync", { headers: { origin: AUTH_URL }, data: {} })).status()).toBe(202);
  expect(
    (await mia.request.post("/api/auth/admin/set-role", { headers: { origin: AUTH_URL }, data: { userId: "x", role: "admin" } })).status(),
  ).toBe(404);

  // The admin resets the password: the member's session ends, the old password no longer works.
  await admin.reload();
  const reset = row.getByRole("form", { name: `Reset ${member.email}'s password` });
  await reset.getByPlaceholder("new password").fill("member password two");
  await reset.getByRole("button", { name: "Reset" }).click();
  await expect(row.getByRole("status")).toHaveText("Password reset; their sessions were ended.");
  await mia.goto("/settings");
  await expect(mia).toHaveURL(/\/login\?next=%2Fsettings$/);
  await signIn(mia, member);
  await expect(mia.getByText("Wrong email or password.")).toBeVisible();
  await signIn(mia, { ...member, password: "member password two" });
  await expect(mia).toHaveURL(/\/settings$/);
  await expect(mia.getByTestId("signed-in-as")).toHaveText(member.email);

  // The admin removes them: the session they hold ends at once.
  await row.getByRole("button", { name: `Remove ${member.email}` }).click();
  await expect(admin.getByTestId("person-row").filter({ hasText: member.email })).toHaveCount(0);
  expect((await mia.request.get("/api/threads")).status()).toBe(401);
  await mia.reload();
  await expect(mia).toHaveURL(/\/login\?next=%2Fsettings$/);
  await signIn(mia, { ...member, password: "member password two" });
  await expect(mia.getByText("Wrong email or password.")).toBeVisible();
  await admin.context().close();
  await mia.context().close();
});

test("single sign-on through a real OpenID provider makes a member with the provider's email, whom an admin can promote", async ({
  browser,
}) => {
  const sso = await person(browser, "10.30.0.2");
  await sso.goto("/login?next=%2Fthreads");
  const button = sso.getByRole("button", { name: `Sign in with ${OIDC_NAME}` });
  await expect(button).toBeVisible();
  await button.click();

  // At the provider: its login page, a wrong password first, then its consent page.
  await expect(sso).toHaveURL(new RegExp(`^${OIDC_URL}/interaction/`));
  await expect(sso.getByRole("heading", { name: "Sign in to the test provider" })).toBeVisible();
  await sso.getByLabel("Email").fill(OIDC_ACCOUNT.email);
  await sso.getByLabel("Password").fill("not the provider password");
  await sso.getByRole("button", { name: "Sign in" }).click();
  await expect(sso.getByRole("alert")).toHaveText("Wrong email or password.");
  await sso.getByLabel("Email").fill(OIDC_ACCOUNT.email);
  await sso.getByLabel("Password").fill(OIDC_ACCOUNT.password);
  await sso.getByRole("button", { name: "Sign in" }).click();
  await expect(sso.getByRole("heading", { name: "Allow access" })).toBeVisible();
  await expect(sso.getByText(/openid, email, profile|openid email profile/)).toBeVisible();
  await sso.getByRole("button", { name: "Allow" }).click();

  // Back through the callback, signed in, where the login page was headed.
  await expect(sso).toHaveURL(`${AUTH_URL}/threads`);
  await expect(sso.getByTestId("signed-in-as")).toHaveText(OIDC_ACCOUNT.email);
  const session = await (await sso.request.get("/api/auth/get-session")).json();
  expect(session.user).toMatchObject({ email: OIDC_ACCOUNT.email, name: OIDC_ACCOUNT.name, role: "member", emailVerified: true });
  expect((await sso.request.post("/api/sources/sync", { headers: { origin: AUTH_URL }, data: {} })).status()).toBe(403);

  // The admin sees them in People, signed in with single sign-on, and makes them an admin.
  const admin = await person(browser, "10.30.0.1");
  await signIn(admin, AUTH_ADMIN);
  const row = admin.getByTestId("person-row").filter({ hasText: OIDC_ACCOUNT.email });
  await expect(row).toContainText("single sign-on");
  await expect(row).toContainText("member");
  const promote = row.getByLabel(`Role of ${OIDC_ACCOUNT.email}`);
  await expectHydrated(promote);
  await promote.selectOption("admin");
  await expect(row.getByRole("status")).toHaveText("Now an admin.");
  await sso.reload();
  await expect(sso.getByTestId("signed-in-as")).toHaveText(`${OIDC_ACCOUNT.email} (admin)`);

  // Removed, and signed out at once; the next sign-on makes them a member again.
  await row.getByRole("button", { name: `Remove ${OIDC_ACCOUNT.email}` }).click();
  await expect(admin.getByTestId("person-row").filter({ hasText: OIDC_ACCOUNT.email })).toHaveCount(0);
  expect((await sso.request.get("/api/threads")).status()).toBe(401);
  await admin.context().close();
  await sso.context().close();
});

test("sign-in is limited per client address, which a forged x-threadline-peer does not change, and per account, with Retry-After", async ({
  playwright,
  browser,
}) => {
  const api = await playwright.request.newContext({ baseURL: AUTH_URL });
  const attempt = (email: string, headers: Record<string, string>) =>
    api.post("/api/auth/sign-in/email", { data: { email, password: "a guess" }, headers });
  const run = Date.now();

  // One client (X-Forwarded-For from the trusted 127.0.0.1) claiming another peer each time: the
  // server writes the peer itself, so the sixth attempt a minute is refused all the same.
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await attempt(`peer-${run}-${i}@threadline.test`, {
      "x-forwarded-for": "10.66.0.1",
      "x-threadline-peer": `203.0.113.${i + 1}`,
    });
    statuses.push(response.status());
    if (i === 5) expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  // Another client behind the same proxy is counted apart: the server did record 127.0.0.1 as the peer.
  expect((await attempt(`peer-${run}-x@threadline.test`, { "x-forwarded-for": "10.66.0.2" })).status()).toBe(401);

  // One account guessed at from ten addresses: the eleventh attempt is refused for 15 minutes.
  const target = `locked-${run}@threadline.test`;
  const guesses: number[] = [];
  for (let i = 0; i < 10; i++) guesses.push((await attempt(target, { "x-forwarded-for": `10.67.${i}.1` })).status());
  expect(guesses).toEqual(new Array(10).fill(401));
  const locked = await attempt(target, { "x-forwarded-for": "10.67.99.1" });
  expect(locked.status()).toBe(429);
  expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(14 * 60);
  await api.dispose();

  // The login page says how long to wait.
  const page = await person(browser, "10.67.100.1");
  await signIn(page, { email: target, password: "the right one, perhaps" });
  await expect(page.getByText("Too many attempts: try again in 15 minutes.")).toBeVisible();
  await page.context().close();
});

test("a member's thread is private until they share it on its page; then the other member reads it, and cannot change it", async ({
  browser,
}) => {
  const stamp = Date.now();
  const [mia, noor] = [
    { name: "Mia", email: `mia-owner-${stamp}@threadline.test`, password: "mia's password one" },
    { name: "Noor", email: `noor-${stamp}@threadline.test`, password: "noor's password one" },
  ];
  const admin = await person(browser, "10.21.0.1");
  await signIn(admin, AUTH_ADMIN);
  const add = admin.getByRole("form", { name: "Add a person" });
  for (const member of [mia, noor]) {
    await add.getByLabel("Name").fill(member.name);
    await add.getByLabel("Email").fill(member.email);
    await add.getByLabel("Password").fill(member.password);
    await add.getByLabel("Role").selectOption("member");
    await add.getByRole("button", { name: "Add person" }).click();
    await expect(add.getByText(`Added ${member.email}.`)).toBeVisible();
  }
  const miaPage = await person(browser, "10.21.0.2");
  await signIn(miaPage, mia);
  await expect(miaPage).toHaveURL(/\/settings$/);
  const title = `Mia's launch plan ${stamp}`;
  const created = await miaPage.request.post("/api/threads", { headers: { origin: AUTH_URL }, data: { toolName: "chat", title } });
  expect(created.status()).toBe(201);
  const threadId = (await created.json()).thread.id as string;

  // Noor: not in the list, not in search, and its page is not found.
  const noorPage = await person(browser, "10.21.0.3");
  await signIn(noorPage, noor, "/threads");
  await expect(noorPage).toHaveURL(/\/threads$/);
  await expect(noorPage.getByRole("link", { name: title })).toHaveCount(0);
  expect((await noorPage.request.get(`/api/threads/${threadId}`)).status()).toBe(404);
  const hidden = await noorPage.goto(`/threads/${threadId}`);
  expect(hidden?.status()).toBe(404);
  await expect(noorPage.getByText(title)).toHaveCount(0);

  // Mia shares it from its page.
  await miaPage.goto(`/threads/${threadId}`);
  await expect(miaPage.getByTestId("thread-visibility")).toHaveText("Private to you");
  const share = miaPage.getByRole("button", { name: "Share with the team" });
  await expectHydrated(share);
  await share.click();
  await expect(miaPage.getByTestId("thread-visibility")).toHaveText("Shared with the team");
  await expect(miaPage.getByRole("button", { name: "Make private" })).toBeVisible();

  // Noor now reads it, sees whose it is, and has no button to change it; the server refuses her too.
  await noorPage.goto("/threads");
  await expect(noorPage.getByRole("link", { name: title })).toBeVisible();
  await noorPage.goto(`/threads/${threadId}`);
  await expect(noorPage.getByTestId("thread-visibility")).toHaveText("Shared with the team by Mia");
  await expect(noorPage.getByRole("button", { name: "Make private" })).toHaveCount(0);
  await expect(noorPage.getByRole("button", { name: "Share…" })).toHaveCount(0);
  const change = await noorPage.request.put(`/api/threads/${threadId}/visibility`, {
    headers: { origin: AUTH_URL },
    data: { visibility: "private" },
  });
  expect(change.status()).toBe(403);
  for (const width of [1440, 390]) {
    await noorPage.setViewportSize({ width, height: 900 });
    await noorPage.screenshot({ path: test.info().outputPath(`shared-thread-${width}.png`), fullPage: true });
  }
  // Mia's priced session: the admin's usage counts it under her name, without its title.
  const priced = await miaPage.request.post("/api/import", {
    headers: { origin: AUTH_URL, "content-type": "application/json" },
    data: pricedDocument({ title: `Mia's priced session ${stamp}` }).document,
  });
  expect(priced.status()).toBe(201);
  await admin.goto("/usage");
  const byPerson = admin.getByTestId("by-person");
  await expect(byPerson).toContainText("Mia");
  await expect(admin.getByTestId("by-thread")).toContainText("A private thread");
  await expect(admin.getByTestId("by-thread")).not.toContainText(`Mia's priced session ${stamp}`);
  for (const width of [1440, 390]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.screenshot({ path: test.info().outputPath(`team-usage-${width}.png`), fullPage: true });
  }
  // The admin's insights: Mia under By person with her session's figures; her session counted, never named.
  await admin.goto("/insights");
  const miaRow = admin.getByTestId("by-person-row").filter({ has: admin.getByRole("rowheader", { name: "Mia", exact: true }) });
  await expect(miaRow).toHaveCount(1);
  await expect(miaRow.getByTestId("by-person-sessions")).toHaveText("1");
  await expect(miaRow.getByTestId("by-person-turns")).toHaveText("2");
  await expect(miaRow.getByTestId("by-person-responses")).toHaveText("1");
  await expect(miaRow.getByTestId("by-person-cost")).toHaveText(/^\$\d/);
  await expect(admin.getByRole("main")).not.toContainText(`Mia's priced session ${stamp}`);
  for (const width of [1440, 390]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.screenshot({ path: test.info().outputPath(`team-insights-${width}.png`), fullPage: true });
  }

  // Mia's Settings: who reads her threads, now and per project.
  await miaPage.goto("/settings");
  const visibility = miaPage.getByRole("region", { name: "Who reads your threads" });
  await expect(visibility.getByLabel("New threads you create, import or push are read by")).toHaveValue("private");
  for (const width of [1440, 390]) {
    await miaPage.setViewportSize({ width, height: 900 });
    await visibility.screenshot({ path: test.info().outputPath(`visibility-settings-${width}.png`) });
  }
  for (const page of [admin, miaPage, noorPage]) await page.context().close();
});
