/**
 * Sign-in on (the auth server, THREADLINE_AUTH=on), in Chromium: a page sends you to /login and
 * back; an admin creates an API token in Settings, a real MCP client (the SDK's Streamable HTTP
 * transport) uses it, the admin revokes it, and the same client is refused at once.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { AUTH_ADMIN, AUTH_URL, E2E_SERVERS } from "../playwright.config";

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
