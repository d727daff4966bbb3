import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { IMPORTS_URL, SEEDED_URL } from "../playwright.config";
import { expect, test } from "./fixtures";

/**
 * A hostile web page in the user's own browser, as proxy.ts must stop it: a page on another port of
 * this machine sending the writes a browser allows without a preflight (no-cors fetch, a text/plain
 * form), and a DNS-rebinding page whose name resolves to 127.0.0.1 and reads the answers. Chromium
 * maps evil.example to 127.0.0.1 itself (--host-resolver-rules), as a rebinding DNS server would.
 * Chromium's own Local Network Access checks are turned off: other browsers have none, and the
 * server must refuse these requests by itself. Whatever a test writes, refused or not, is swept
 * away after it (threads.sweepAfterwards).
 */
const BASE_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
test.use({
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: [
      ...BASE_ARGS,
      "--host-resolver-rules=MAP evil.example 127.0.0.1",
      "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests",
    ],
  },
});

const TARGET = new URL(SEEDED_URL);

/** A raw HTTP request, so tests can send the Host and Origin a browser or curl would. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  target = TARGET,
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function threadsWithTool(toolName: string): Promise<number> {
  const response = await send("GET", `/api/threads?tool=${encodeURIComponent(toolName)}&limit=100`, { host: TARGET.host });
  expect(response.status).toBe(200);
  return (JSON.parse(response.text) as { items: { toolName: string }[] }).items.filter((t) => t.toolName === toolName).length;
}

async function demoThreadExists(): Promise<boolean> {
  return (await send("GET", `/api/threads/${DEMO_IDS.debug}`, { host: TARGET.host })).status === 200;
}

test.describe("a page on another port of this machine", () => {
  let attacker: Server;
  let attackerUrl = "";
  const MARK = `hostile-${Date.now()}`;

  test.beforeAll(async () => {
    const json = JSON.stringify({ toolName: MARK });
    // A form with enctype text/plain sends `name=value`: this name and value make the body JSON.
    const formName = `{"toolName":"${MARK}","padding":"`;
    const page = `<!doctype html><meta charset="utf-8"><title>Free prizes</title>
<iframe name="sink"></iframe>
<form id="f" method="POST" enctype="text/plain" target="sink" action="${SEEDED_URL}/api/threads"><input name='${formName}' value='"}'></form>
<script>
(async () => {
  const attempts = [
    fetch(${JSON.stringify(`${SEEDED_URL}/api/threads`)}, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(json)} }),
    fetch(${JSON.stringify(`${SEEDED_URL}/api/import?name=prize.json`)}, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(JSON.stringify([{ role: "user", content: MARK }]))} }),
    fetch(${JSON.stringify(`${SEEDED_URL}/api/mcp`)}, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_thread", arguments: { toolName: ${JSON.stringify(MARK)} } } }) }),
  ];
  await Promise.allSettled(attempts);
  document.querySelector("iframe").addEventListener("load", () => { document.title = "done"; });
  document.getElementById("f").submit();
})();
</script>`;
    attacker = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(page);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => attacker.close(resolve));
  });

  test("cannot create or import anything: every write it sends is refused", async ({ page, threads }) => {
    await threads.sweepAfterwards();
    expect(await demoThreadExists()).toBe(true);
    const importsBefore = await threadsWithTool("import");
    const refused: number[] = [];
    page.on("response", (response) => {
      if (response.url().startsWith(SEEDED_URL)) refused.push(response.status());
    });
    await page.goto(attackerUrl);
    await expect(page).toHaveTitle("done");
    // The browser sent them all (no preflight held them back) and the server refused each one.
    // (A DELETE or a JSON body would need a preflight, which the server never grants.)
    expect(refused.length).toBe(4);
    expect(refused.every((status) => status === 403)).toBe(true);
    expect(await threadsWithTool(MARK)).toBe(0);
    expect(await threadsWithTool("import")).toBe(importsBefore);
    expect(await demoThreadExists()).toBe(true);

    // The same body without a browser's Origin (curl, an agent) is accepted: only the origin differs.
    const control = await send(
      "POST",
      "/api/threads",
      { host: TARGET.host, "content-type": "text/plain" },
      JSON.stringify({ toolName: MARK }),
    );
    expect(control.status).toBe(201);
    expect(await threadsWithTool(MARK)).toBe(1);
    const { thread } = JSON.parse(control.text) as { thread: { id: string } };
    expect((await send("DELETE", `/api/threads/${thread.id}`, { host: TARGET.host })).status).toBe(204);
  });
});

test.describe("a page on another port of this machine, reading", () => {
  test("cannot read the live event stream: the browser gets no event and no body, even while threads are written", async ({
    page,
    threads,
  }) => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><meta charset="utf-8"><title>Just reading</title>
<script>
window.result = { events: 0, errors: 0, state: null, fetch: "pending" };
const source = new EventSource(${JSON.stringify(`${SEEDED_URL}/api/events`)});
for (const name of ["sources", "thread", "message"]) source.addEventListener(name, () => window.result.events++);
source.onerror = () => { window.result.errors++; window.result.state = source.readyState; };
fetch(${JSON.stringify(`${SEEDED_URL}/api/events`)}).then((r) => r.body.getReader().read()).then(() => { window.result.fetch = "read"; }, () => { window.result.fetch = "refused"; });
</script>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await threads.create({ toolName: "hostile-read" }); // an event the page would be sent, could it read the stream
      // The browser refuses the answer (no CORS header): the EventSource fails for good, the fetch rejects.
      await expect.poll(() => page.evaluate(() => (window as any).result)).toMatchObject({ fetch: "refused", state: 2 });
      expect(await page.evaluate(() => (window as any).result.events)).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

test.describe("DNS rebinding", () => {
  test("a page served as evil.example on this port gets 403 for pages and API, and cannot delete", async ({ page }) => {
    const rebound = `http://evil.example:${TARGET.port}`;
    const direct = await page.goto(`${rebound}/threads`);
    expect(direct?.status()).toBe(403);
    await expect(page.locator("body")).toContainText('does not answer to the host name "evil.example');

    // The attacker's page, as it was served before the name was rebound: its scripts are
    // same-origin with the name, so they could read whatever the server answered.
    await page.route(`${rebound}/attack`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>attack</title>" }),
    );
    await page.goto(`${rebound}/attack`);
    const results = await page.evaluate(async (id) => {
      const list = await fetch("/api/threads");
      const one = await fetch(`/api/threads/${id}`);
      const purge = await fetch(`/api/threads/${id}`, { method: "DELETE" });
      const events = await fetch("/api/events");
      return { list: list.status, listBody: await list.text(), one: one.status, purge: purge.status, events: events.status };
    }, DEMO_IDS.debug);
    expect(results).toMatchObject({ list: 403, one: 403, purge: 403, events: 403 });
    expect(JSON.parse(results.listBody)).toEqual({
      error: { code: "forbidden", message: expect.stringContaining("THREADLINE_ALLOWED_HOSTS") },
    });
    expect(results.listBody).not.toContain(DEMO_IDS.debug);
    expect(await demoThreadExists()).toBe(true);
  });
});

test.describe("as curl", () => {
  test("a foreign Host is refused for reads and writes, pages answer plain text, the loopback names work", async () => {
    for (const [method, path] of [
      ["GET", "/api/threads"],
      ["GET", "/api/events"],
      ["GET", `/api/threads/${DEMO_IDS.debug}/live`],
      ["GET", "/threads"],
      ["GET", "/settings"],
      ["DELETE", `/api/threads/${DEMO_IDS.debug}`],
      ["POST", "/api/mcp"],
    ] as const) {
      const response = await send(method, path, { host: `evil.example:${TARGET.port}` });
      expect(response.status, `${method} ${path}`).toBe(403);
      if (path === "/api/mcp") expect(JSON.parse(response.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
      else if (path.startsWith("/api/")) expect(JSON.parse(response.text).error.code).toBe("forbidden");
      else expect(response.type).toContain("text/plain");
    }
    for (const host of [`localhost:${TARGET.port}`, `[::1]:${TARGET.port}`, TARGET.host]) {
      expect((await send("GET", "/api/threads?limit=1", { host })).status, host).toBe(200);
    }
    expect((await send("GET", "/api/threads?limit=1", { host: "127.0.0.1:9999" })).status).toBe(403);
    expect(await demoThreadExists()).toBe(true);
  });

  test("writes from another origin are refused whatever the content type, server actions included", async ({ threads }) => {
    await threads.sweepAfterwards();
    const body = JSON.stringify({ toolName: "curl-origin" });
    for (const origin of [
      "http://evil.example",
      `http://127.0.0.1:${Number(TARGET.port) + 1000}`,
      `http://localhost:${TARGET.port}`,
      "null",
    ]) {
      for (const type of ["application/json", "text/plain"]) {
        const response = await send("POST", "/api/threads", { host: TARGET.host, origin, "content-type": type }, body);
        expect(response.status, `${origin} ${type}`).toBe(403);
      }
    }
    // A server action is a POST to a page: refused before Next.js looks at the action.
    const action = await send(
      "POST",
      "/settings",
      { host: TARGET.host, origin: "http://evil.example", "next-action": "0".repeat(40), "content-type": "text/plain" },
      "[]",
    );
    expect(action.status).toBe(403);
    const crossSite = await send(
      "POST",
      "/api/threads",
      { host: TARGET.host, "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body,
    );
    expect(crossSite.status).toBe(403);
    expect(await threadsWithTool("curl-origin")).toBe(0);

    const own = await send("POST", "/api/threads", { host: TARGET.host, origin: SEEDED_URL, "content-type": "application/json" }, body);
    expect(own.status).toBe(201);
    const { thread } = JSON.parse(own.text) as { thread: { id: string } };
    expect((await send("DELETE", `/api/threads/${thread.id}`, { host: TARGET.host, origin: SEEDED_URL })).status).toBe(204);
  });
});

test.describe("behind a proxy", () => {
  // The imports server runs with THREADLINE_ALLOWED_HOSTS=threadline.test (playwright.config.ts).
  const proxied = new URL(IMPORTS_URL);
  test("THREADLINE_ALLOWED_HOSTS names the proxy's host; its https pages may write; other names stay refused", async ({ threads }) => {
    await threads.sweepAfterwards(IMPORTS_URL);
    expect((await send("GET", "/api/threads?limit=1", { host: "threadline.test" }, undefined, proxied)).status).toBe(200);
    expect((await send("GET", "/threads", { host: `threadline.test:${proxied.port}` }, undefined, proxied)).status).toBe(200);
    expect((await send("GET", "/api/threads?limit=1", { host: "threadline.test:8443" }, undefined, proxied)).status).toBe(403);
    expect((await send("GET", "/api/threads?limit=1", { host: "other.test" }, undefined, proxied)).status).toBe(403);
    const body = JSON.stringify({ toolName: "behind-proxy" });
    const written = await send(
      "POST",
      "/api/threads",
      { host: "threadline.test", origin: "https://threadline.test", "content-type": "application/json" },
      body,
      proxied,
    );
    expect(written.status).toBe(201);
    const { thread } = JSON.parse(written.text) as { thread: { id: string } };
    expect(
      (
        await send(
          "POST",
          "/api/threads",
          { host: "threadline.test", origin: "https://evil.test", "content-type": "application/json" },
          body,
          proxied,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await send(
          "DELETE",
          `/api/threads/${thread.id}`,
          { host: "threadline.test", origin: "https://threadline.test" },
          undefined,
          proxied,
        )
      ).status,
    ).toBe(204);
  });
});

test.describe("pathological input", () => {
  test("a turn of one character repeated 2 MB is stored, counted as an estimate and shown", async ({ page, request, threads }) => {
    const thread = await threads.create({ toolName: "pathological", title: "One long run" });
    const appended = await request.post(`/api/threads/${thread.id}/turns`, { data: { role: "tool", content: "A".repeat(2_000_000) } });
    expect(appended.status()).toBe(201);
    expect(await appended.json()).toMatchObject({ turn: { tokensEstimated: true, tokens: expect.any(Number) } });
    await page.goto(`/threads/${thread.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "One long run" })).toBeVisible();
    const count = page.getByRole("list", { name: "Turns" }).getByTestId("token-count");
    await expect(count).toHaveText(/^~[\d.,]+k? tokens$/);
    await expect(count).toHaveAttribute("title", /o200k_base; an estimate/);
  });
});
