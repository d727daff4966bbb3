import { expect, test } from "./fixtures";
import { trackRequests } from "./network";
import { fingerprintOf } from "../lib/domain/secrets/detect";
import { secretSamples } from "../lib/domain/secrets/samples";

/**
 * Secrets in a transcript (README, "Secrets in transcripts"): the thread's pages show none of
 * them, not in the HTML nor in any answer the pages load; a reveal shows one; the Secrets page
 * lists them; redacting in place removes them from the stored text.
 */
const samples = secretSamples(11);

test("a thread with secrets shows none of them, reveals one on request, lists and redacts them", async ({ page, request, threads }) => {
  const thread = await threads.create({ toolName: "e2e", title: "Deploy notes" });
  for (const [i, sample] of samples.entries()) await threads.appendTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: `Step ${i}: ${sample.line(sample.value)}` });

  const bodies: string[] = [];
  page.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (/html|javascript|json|text\/x-component|text\/plain/.test(type) && !/event-stream/.test(type)) bodies.push(`${response.url()}\n${await response.text().catch(() => "")}`);
  });
  const requests = trackRequests(page);
  for (const path of [`/threads/${thread.id}`, `/threads/${thread.id}/chain`, `/threads/${thread.id}/lineage`, `/threads/${thread.id}/budget`, "/threads"]) {
    await page.goto(path);
    await requests.settled();
    const html = await page.content();
    for (const sample of samples) expect(html, `${path}: ${sample.rule}`).not.toContain(sample.value);
  }
  for (const body of bodies) for (const sample of samples) expect(body.includes(sample.value), `${body.slice(0, 120)}: ${sample.rule}`).toBe(false);

  await page.goto(`/threads/${thread.id}`);
  const mask = `[GitHub token …${fingerprintOf(samples[2]!.value).slice(-4)}]`;
  await expect(page.getByText(mask, { exact: false }).first()).toBeVisible();

  // Reveal: one server request that answers that one value.
  const turns = (await (await request.get(`/api/threads/${thread.id}/turns?limit=100`)).json()) as { items: { id: string }[] };
  const revealed = await request.post("/api/secrets/reveal", { data: { threadId: thread.id, turnId: turns.items[2]!.id, fingerprint: fingerprintOf(samples[2]!.value) } });
  expect(((await revealed.json()) as { value: string }).value).toBe(samples[2]!.value);

  // The scan runs in the background: the Secrets page lists the findings once it has caught up.
  await expect(async () => {
    await page.goto("/secrets");
    await expect(page.getByTestId("secret-thread").filter({ hasText: "Deploy notes" }).getByTestId("secret-finding")).toHaveCount(samples.length);
  }).toPass({ timeout: 20_000 });
  expect(await page.content()).not.toContain(samples[0]!.value);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("secret-thread").filter({ hasText: "Deploy notes" }).getByRole("button", { name: "Redact all in place" }).click();
  await expect(page.getByTestId("secret-thread").filter({ hasText: "Deploy notes" })).toHaveCount(0);
  const lossless = await (await request.get(`/api/threads/${thread.id}/export`)).text();
  for (const sample of samples) expect(lossless).not.toContain(sample.value);
  expect(lossless).toContain("[REDACTED:github-token:");
});
