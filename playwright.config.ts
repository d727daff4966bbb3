import path from "node:path";
import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";

type WebServer = Extract<NonNullable<PlaywrightTestConfig["webServer"]>, unknown[]>[number];

/**
 * Six production servers: one seeded with the demo set, one empty (empty states, the export ->
 * import round trip), one for transcript imports, so the order of spec files does not matter, one
 * whose HOME is e2e/.data/sources-home, following its ~/.claude/projects (the Sources page), one
 * with sign-in on (and single sign-on with a local OpenID provider, port + 6), and one with
 * sign-in on and nobody yet (the setup page).
 */
// THREADLINE_E2E_PORT moves all of them (it and the next six ports), so two checkouts can run the suite side by side.
const firstPort = Number(process.env.THREADLINE_E2E_PORT ?? 3100);
const [seededPort, emptyPort, importsPort, sourcesPort, authPort, setupPort, oidcPort] = [0, 1, 2, 3, 4, 5, 6].map(
  (offset) => firstPort + offset,
) as [number, number, number, number, number, number, number];
export const SEEDED_URL = `http://127.0.0.1:${seededPort}`;
export const EMPTY_URL = `http://127.0.0.1:${emptyPort}`;
export const IMPORTS_URL = `http://127.0.0.1:${importsPort}`;
export const SOURCES_URL = `http://127.0.0.1:${sourcesPort}`;
/** The server with sign-in on (THREADLINE_AUTH=on); its first admin comes from the environment. */
export const AUTH_URL = `http://127.0.0.1:${authPort}`;
export const AUTH_ADMIN = { email: "admin@threadline.test", password: "e2e admin password" };
/**
 * A real OpenID Connect provider (panva's oidc-provider, scripts/e2e-oidc-provider.mjs), started
 * with the auth server, which signs in with it: its static client and its one account.
 */
export const OIDC_URL = `http://127.0.0.1:${oidcPort}`;
export const OIDC_CLIENT = { id: "threadline-e2e", secret: "threadline e2e client secret, 32+ chars" };
export const OIDC_ACCOUNT = { email: "sso.person@oidc.threadline.test", password: "provider password", name: "Sso Person" };
export const OIDC_NAME = "the test provider";
/** Sign-in on and no THREADLINE_ADMIN_EMAIL: the first visit shows /setup (e2e/setup.spec.ts, once per run). */
export const SETUP_URL = `http://127.0.0.1:${setupPort}`;
/**
 * THREADLINE_E2E_SERVERS=auth (a comma-separated list of names) starts only those servers, for
 * running one spec; the default is all six (the OpenID provider comes with auth).
 */
export const E2E_SERVERS = new Set(
  (process.env.THREADLINE_E2E_SERVERS ?? "seeded,empty,imports,sources,auth,setup").split(",").map((s) => s.trim()),
);
/** The sources server's HOME (scripts/e2e-server.mjs --sources-home makes it afresh). */
export const SOURCES_HOME = path.resolve("e2e", ".data", "sources-home");

/** Each server with its name in THREADLINE_E2E_SERVERS (the OpenID provider is started with the auth server). */
const servers: (WebServer & { name: string })[] = [
  {
    name: "seeded",
    command: `node scripts/e2e-server.mjs ${seededPort} seeded --seed`,
    url: `${SEEDED_URL}/api/threads?limit=1`,
    timeout: 120_000,
    reuseExistingServer: false,
  },
  {
    name: "empty",
    command: `node scripts/e2e-server.mjs ${emptyPort} empty`,
    url: `${EMPTY_URL}/api/threads?limit=1`,
    timeout: 120_000,
    reuseExistingServer: false,
  },
  {
    name: "imports",
    command: `node scripts/e2e-server.mjs ${importsPort} imports --allowed-hosts=threadline.test`,
    url: `${IMPORTS_URL}/api/threads?limit=1`,
    timeout: 120_000,
    reuseExistingServer: false,
  },
  {
    name: "sources",
    command: `node scripts/e2e-server.mjs ${sourcesPort} sources --sources-home`,
    url: `${SOURCES_URL}/api/threads?limit=1`,
    timeout: 120_000,
    reuseExistingServer: false,
  },
  {
    name: "auth",
    command: `node scripts/e2e-oidc-provider.mjs ${oidcPort} ${AUTH_URL}/api/auth/callback/oidc`,
    url: `${OIDC_URL}/.well-known/openid-configuration`,
    timeout: 30_000,
    reuseExistingServer: false,
    env: {
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_ACCOUNT_EMAIL: OIDC_ACCOUNT.email,
      OIDC_ACCOUNT_PASSWORD: OIDC_ACCOUNT.password,
      OIDC_ACCOUNT_NAME: OIDC_ACCOUNT.name,
    },
  },
  {
    name: "auth",
    command: `node scripts/e2e-server.mjs ${authPort} auth --auth --sources-home`, // a followed folder: the Sources page has controls to hide from members
    url: `${AUTH_URL}/login`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      THREADLINE_ADMIN_EMAIL: AUTH_ADMIN.email,
      THREADLINE_ADMIN_PASSWORD: AUTH_ADMIN.password,
      // The browsers stand behind a proxy on this machine: each test's X-Forwarded-For is a person's address.
      THREADLINE_TRUSTED_PROXIES: "127.0.0.1, ::1",
      // Single sign-on as docs/security.md describes it, with the provider above.
      THREADLINE_URL: AUTH_URL,
      THREADLINE_OIDC_ISSUER: OIDC_URL,
      THREADLINE_OIDC_CLIENT_ID: OIDC_CLIENT.id,
      THREADLINE_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      THREADLINE_OIDC_NAME: OIDC_NAME,
    },
  },
  {
    name: "setup",
    command: `node scripts/e2e-server.mjs ${setupPort} setup --auth`,
    url: `${SETUP_URL}/setup`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { THREADLINE_ADMIN_EMAIL: "", THREADLINE_ADMIN_PASSWORD: "" },
  },
];

export default defineConfig({
  testDir: "./e2e",
  globalTeardown: "./e2e/global-teardown.ts",
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"], ["json", { outputFile: ".tmp/test-results/playwright.json" }]], // npm test sums it up
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: SEEDED_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright never downloads a browser here.
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 900 } } }],
  webServer: servers.filter((server) => E2E_SERVERS.has(server.name)).map(({ name: _name, ...server }) => server),
});
