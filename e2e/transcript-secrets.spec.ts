import type { Page } from "@playwright/test";
import { AUTH_ADMIN, AUTH_URL, E2E_SERVERS } from "../playwright.config";
import { expect, test } from "./fixtures";
import { trackRequests } from "./network";
import { fingerprintOf } from "../lib/domain/secrets/detect";
import { secretSamples } from "../lib/domain/testing/secret-samples";

/**
 * Secrets in a transcript (docs/security.md, "Secrets in transcripts"): the thread's pages show none of
 * them, not in the HTML nor in any answer the pages load; a reveal shows one; the Secrets page
 * lists them; redacting in place removes them from the stored text.
 */
const samples = secretSamples(11);

test("a thread with secrets shows none of them, reveals one on request, lists and redacts them", async ({ page, request, threads }) => {
  const thread = await threads.create({ toolName: "e2e", title: "Deploy notes" });
  for (const [i, sample] of samples.entries())
    await threads.appendTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: `Step ${i}: ${sample.line(sample.value)}` });

  const bodies: string[] = [];
  page.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (/html|javascript|json|text\/x-component|text\/plain/.test(type) && !/event-stream/.test(type))
      bodies.push(`${response.url()}\n${await response.text().catch(() => "")}`);
  });
  const requests = trackRequests(page);
  for (const path of [
    `/threads/${thread.id}`,
    `/threads/${thread.id}/chain`,
    `/threads/${thread.id}/lineage`,
    `/threads/${thread.id}/budget`,
    "/threads",
  ]) {
    await page.goto(path);
    await requests.settled();
    const html = await page.content();
    for (const sample of samples) expect(html, `${path}: ${sample.rule}`).not.toContain(sample.value);
  }
  for (const body of bodies)
    for (const sample of samples) expect(body.includes(sample.value), `${body.slice(0, 120)}: ${sample.rule}`).toBe(false);

  await page.goto(`/threads/${thread.id}`);
  const mask = `[GitHub token …${fingerprintOf(samples[2]!.value).slice(-4)}]`;
  await expect(page.getByText(mask, { exact: false }).first()).toBeVisible();

  // Reveal: one server request that answers that one value.
  const turns = (await (await request.get(`/api/threads/${thread.id}/turns?limit=100`)).json()) as { items: { id: string }[] };
  const revealed = await request.post("/api/secrets/reveal", {
    data: { threadId: thread.id, turnId: turns.items[2]!.id, fingerprint: fingerprintOf(samples[2]!.value) },
  });
  expect(((await revealed.json()) as { value: string }).value).toBe(samples[2]!.value);

  // The scan runs in the background: the Secrets page lists the findings once it has caught up.
  await expect(async () => {
    await page.goto("/secrets");
    await expect(page.getByTestId("secret-thread").filter({ hasText: "Deploy notes" }).getByTestId("secret-finding")).toHaveCount(
      samples.length,
    );
  }).toPass({ timeout: 20_000 });
  expect(await page.content()).not.toContain(samples[0]!.value);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("secret-thread").filter({ hasText: "Deploy notes" }).getByRole("button", { name: "Redact all in place" }).click();
  await expect(page.getByTestId("secret-thread").filter({ hasText: "Deploy notes" })).toHaveCount(0);
  const lossless = await (await request.get(`/api/threads/${thread.id}/export`)).text();
  for (const sample of samples) expect(lossless).not.toContain(sample.value);
  expect(lossless).toContain("[REDACTED:github-token:");
});

test("a mask is a button that reveals its one value in place, by mouse or keyboard; a reload shows the mask again", async ({
  page,
  threads,
}) => {
  const thread = await threads.create({ toolName: "e2e", title: "Reveal one" });
  const [aws, , github] = samples;
  await threads.appendTurn(thread.id, { role: "user", content: `Set up: ${aws!.line(aws!.value)}` });
  await threads.appendTurn(thread.id, { role: "assistant", content: `Then:\n\n\`\`\`bash\n${github!.line(github!.value)}\n\`\`\`` });
  const revealed: string[] = [];
  page.on("request", (request) => void (request.url().endsWith("/api/secrets/reveal") && revealed.push(request.postData() ?? "")));

  await page.goto(`/threads/${thread.id}`);
  const awsMask = page.getByRole("button", { name: `Reveal the AWS access key …${fingerprintOf(aws!.value).slice(-4)}` });
  await expect(awsMask).toHaveText(`[AWS access key …${fingerprintOf(aws!.value).slice(-4)}]`);
  expect(await page.content()).not.toContain(aws!.value);
  await awsMask.click();
  await expect(page.getByTestId("secret-value")).toHaveText(aws!.value);
  // One request, for that one secret, by the end of its fingerprint.
  expect(revealed).toHaveLength(1);
  expect(JSON.parse(revealed[0]!)).toMatchObject({ threadId: thread.id, fingerprint: fingerprintOf(aws!.value).slice(-4) });
  await expect(page.getByRole("button", { name: /^Hide the AWS access key/ })).toBeFocused();

  // By keyboard: the mask in the code block is a button like any other; Enter reveals, Enter hides.
  const githubMask = page.getByRole("button", { name: `Reveal the GitHub token …${fingerprintOf(github!.value).slice(-4)}` });
  await githubMask.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("secret-value").filter({ hasText: github!.value })).toBeVisible();
  await page.keyboard.press("Enter"); // Hide has the focus now
  await expect(githubMask).toBeFocused();
  await expect(page.getByTestId("secret-value")).toHaveCount(1);

  await page.reload();
  await expect(awsMask).toBeVisible();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  const html = await page.content();
  for (const sample of [aws!, github!]) expect(html).not.toContain(sample.value);
});

test("the thread's send-secrets-to-models setting shows its state and turns on only after its warning is accepted", async ({
  page,
  request,
  threads,
}) => {
  const thread = await threads.create({ toolName: "e2e", title: "Switch" });
  await threads.appendTurn(thread.id, { role: "user", content: samples[2]!.line(samples[2]!.value) });
  const setting = async () =>
    ((await (await request.get(`/api/threads/${thread.id}/secret-settings`)).json()) as { sendToModels: boolean }).sendToModels;
  // The header shows the setting once the scan has found the secret.
  await expect(async () => {
    await page.goto(`/threads/${thread.id}`);
    await expect(page.getByTestId("send-secrets")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const box = page.getByTestId("send-secrets");
  await expect(box).toHaveAttribute("data-state", "off");
  await expect(box).toContainText("Secrets are not sent to models");

  let warning = "";
  page.once("dialog", (dialog) => {
    warning = dialog.message();
    void dialog.dismiss();
  });
  await box.getByRole("button", { name: "Send secrets to models…" }).click();
  await expect.poll(() => warning).toContain("cannot be taken back");
  await expect(box).toHaveAttribute("data-state", "off");
  expect(await setting()).toBe(false);

  page.once("dialog", (dialog) => void dialog.accept());
  await box.getByRole("button", { name: "Send secrets to models…" }).click();
  await expect(box).toHaveAttribute("data-state", "on");
  await expect(box).toContainText("Secrets are sent to models");
  expect(await setting()).toBe(true);
  await page.reload();
  await expect(page.getByTestId("send-secrets")).toHaveAttribute("data-state", "on");

  await page.getByRole("button", { name: "Stop sending secrets" }).click();
  await expect(page.getByTestId("send-secrets")).toHaveAttribute("data-state", "off");
  expect(await setting()).toBe(false);
});

async function signIn(page: Page, person: { email: string; password: string }, next: string): Promise<void> {
  await page.goto(`${AUTH_URL}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${AUTH_URL}${next}`);
}

test("with sign-in on, an admin may reveal and change the setting; a member sees masks only", async ({ page, browser }) => {
  test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started (THREADLINE_E2E_SERVERS)");
  const github = samples[2]!;
  const end = fingerprintOf(github.value).slice(-4);
  const member = { email: `member-${Date.now()}@threadline.test`, password: "member e2e password" };
  await signIn(page, AUTH_ADMIN, "/settings");
  const people = page.getByRole("form", { name: "Add a person" });
  await people.getByLabel("Name").fill("Member");
  await people.getByLabel("Email").fill(member.email);
  await people.getByLabel("Password").fill(member.password);
  await people.getByRole("button", { name: "Add person" }).click();
  await expect(page.getByTestId("person-row").filter({ hasText: member.email })).toBeVisible();

  const created = await page.request.post(`${AUTH_URL}/api/threads`, { data: { toolName: "e2e", title: "Members see masks" } });
  expect(created.status()).toBe(201);
  const { thread } = (await created.json()) as { thread: { id: string } };
  // The admin's thread is private until shared: the member reads it once it is the team's.
  const shared = await page.request.put(`${AUTH_URL}/api/threads/${thread.id}/visibility`, { data: { visibility: "team" } });
  expect(shared.status()).toBe(200);
  const memberContext = await browser.newContext();
  try {
    expect(
      (
        await page.request.post(`${AUTH_URL}/api/threads/${thread.id}/turns`, {
          data: { role: "user", content: github.line(github.value) },
        })
      ).status(),
    ).toBe(201);
    await expect(async () => {
      await page.goto(`${AUTH_URL}/threads/${thread.id}`);
      await expect(page.getByTestId("send-secrets")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    // The admin: the mask is a reveal button, and the setting can be changed.
    await page.getByRole("button", { name: `Reveal the GitHub token …${end}` }).click();
    await expect(page.getByTestId("secret-value")).toHaveText(github.value);
    await expect(page.getByTestId("send-secrets").getByRole("button", { name: "Send secrets to models…" })).toBeVisible();

    // The member: the mask as text, no reveal, the setting's state without its button, the redacted export only.
    const memberPage = await memberContext.newPage();
    await signIn(memberPage, member, `/threads/${thread.id}`);
    await expect(memberPage.getByTestId("secret-mask")).toHaveText(`[GitHub token …${end}]`);
    await expect(memberPage.getByRole("button", { name: /^Reveal/ })).toHaveCount(0);
    const box = memberPage.getByTestId("send-secrets");
    await expect(box).toContainText("An admin can change this.");
    await expect(box.getByRole("button")).toHaveCount(0);
    await memberPage.getByTestId("export-menu").locator("summary").click();
    await expect(memberPage.getByTestId("export-menu")).toContainText("Secrets are redacted: only an admin may export them.");
    await expect(memberPage.getByTestId("export-redact")).toHaveCount(0);
    await expect(memberPage.getByRole("link", { name: /^Export JSON/ })).toHaveAttribute("href", /redact=1/);
    await expect(memberPage.getByRole("link", { name: /^Export JSON/ })).toContainText("re-imports, secrets redacted");
    await expect(memberPage.getByRole("link", { name: /^Export HTML/ })).not.toHaveAttribute("href", /redact=0/);
    expect(await memberPage.content()).not.toContain(github.value);
    const turns = (await (await memberPage.request.get(`${AUTH_URL}/api/threads/${thread.id}/turns`)).json()) as {
      items: { id: string }[];
    };
    const refused = await memberPage.request.post(`${AUTH_URL}/api/secrets/reveal`, {
      data: { threadId: thread.id, turnId: turns.items[0]!.id, fingerprint: end },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).not.toContain(github.value);
    const setting = await memberPage.request.put(`${AUTH_URL}/api/threads/${thread.id}/secret-settings`, {
      data: { sendToModels: true, confirm: true },
    });
    expect(setting.status()).toBe(403);
    // The Secrets page lists the finding for the member, without redaction (an admin's, for good).
    await expect(async () => {
      await memberPage.goto(`${AUTH_URL}/secrets`);
      await expect(memberPage.getByTestId("secret-finding").first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(memberPage.getByRole("button", { name: /Redact/ })).toHaveCount(0);
    expect(
      (await memberPage.request.post(`${AUTH_URL}/api/secrets/redact`, { data: { threadId: thread.id, confirm: true } })).status(),
    ).toBe(403);
  } finally {
    await memberContext.close();
    expect((await page.request.delete(`${AUTH_URL}/api/threads/${thread.id}`)).status()).toBe(204);
    await page.goto(`${AUTH_URL}/settings`);
    await page.getByTestId("person-row").filter({ hasText: member.email }).getByRole("button", { name: "Remove" }).click();
    await expect(page.getByTestId("person-row").filter({ hasText: member.email })).toHaveCount(0);
  }
});
