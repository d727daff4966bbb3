import type { Page } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { EMPTY_URL } from "../playwright.config";
import { expect, test } from "./fixtures";

/**
 * Resuming a demo thread from the composer against a small OpenAI-compatible server on
 * 127.0.0.1: the reply streams in, both turns are stored with attribution and usage, a failing
 * provider leaves the message marked unanswered with a Retry, and Stop keeps what arrived. A fork
 * of the demo thread is resumed, so the other specs see the demo set unchanged.
 */

// In two of seven runs of the whole suite (the CI run of 2026-11-30 among them) the first reply
// did not show within 30 s, while alone, under load and in the five other runs it showed in under
// a second. The locator was polled 5-6 times in those 30 s instead of about 30, which points at the
// browser's page being held, not the server. Until that is found, a failure is tried once more and
// Playwright reports the test as flaky; the provider's request is waited for apart from the reply
// below, so a failing run says which side stopped.
test.describe.configure({ retries: 1 });

async function saveModelSettings(page: Page, values: { chatModel: string; baseUrl: string }) {
  await page.goto("/settings");
  await page.getByLabel("Default chat model").fill(values.chatModel);
  await page.getByLabel("OpenAI-compatible base URL").fill(values.baseUrl);
  await page.getByRole("button", { name: "Save model settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();
}

test("resume a demo thread: streamed reply stored with attribution, provider failure then retry, stop keeps what arrived", async ({
  page,
  request,
  threads,
}) => {
  const { startFakeOpenAi, stream, fail, answer } = await import("../lib/testing/fake-openai");
  const fake = await startFakeOpenAi(stream(["The fix ", "is to decode ", "before comparing."], { delayMs: 150 }));
  const forked = await request.post(`/api/threads/${DEMO_IDS.analyze}/forks`, { data: { atTurn: 1 } });
  expect(forked.status()).toBe(201);
  const forkId = ((await forked.json()) as { thread: { id: string } }).thread.id;
  threads.track(forkId);
  try {
    await saveModelSettings(page, { chatModel: "openai-compatible:local-chat", baseUrl: fake.baseUrl });
    await page.goto(`/threads/${forkId}`);
    const turns = page.getByRole("list", { name: "Turns" }).getByRole("article");
    await expect(turns).toHaveCount(2);
    await expect(page.getByLabel("Model", { exact: true })).toHaveValue("openai-compatible:local-chat");

    const message = page.getByRole("textbox", { name: "Message" });
    await message.fill("So what is the fix, in one line?");
    await message.press("Control+Enter");
    // A server's first reply for a model the catalog does not know loads its tokenizer, o200k_base,
    // before the provider is called: 0.3 s here, seconds on a busy machine (at load 17 the request
    // reached the provider 9.9 s after the key press). Waited for apart from the reply, so a slow
    // run says which side was slow.
    await expect.poll(() => fake.requests.length, { message: "the provider was asked", timeout: 30_000 }).toBe(1);
    // The reply arrives in pieces before it is stored.
    await expect(page.getByTestId("composer-reply")).toContainText("The fix");
    await expect(page.getByTestId("composer-budget")).toContainText("Sent 3 of 3 turns");
    await expect(turns).toHaveCount(4);
    await expect(page.getByTestId("composer-pending")).toHaveCount(0);
    const reply = turns.nth(3);
    await expect(reply).toContainText("The fix is to decode before comparing.");
    await expect(reply.getByTestId("attribution")).toContainText("local-chat");
    await expect(reply.getByTestId("usage-figures")).toContainText("in 321");
    await expect(turns.nth(2)).toContainText("So what is the fix, in one line?");
    await expect(message).toHaveValue("");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.model).toBe("local-chat");
    const sent = fake.requests[0]!.body.messages;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.content).toContain("So what is the fix, in one line?");
    expect(sent[0]!.content).toContain("=== END CONVERSATION HISTORY ===");

    // The provider fails: the message is kept, marked unanswered, and Retry answers it.
    fake.answerWith(fail(503, "the model is overloaded"));
    await message.fill("And the regression test?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("composer-error")).toContainText("HTTP 503");
    await expect(turns).toHaveCount(5);
    await expect(turns.nth(4).getByTestId("chat-mark")).toContainText("Unanswered");
    fake.answerWith(answer("Add tests/auth/refresh.test.ts."));
    await page.getByRole("button", { name: "Retry last message" }).click();
    await expect(turns).toHaveCount(6);
    await expect(turns.nth(5)).toContainText("Add tests/auth/refresh.test.ts.");
    await expect(turns.nth(4).getByTestId("chat-mark")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Retry last message" })).toHaveCount(0);

    // Stop while the reply streams: what arrived is kept, marked incomplete.
    fake.answerWith(stream(["First, ", "second, ", "third, ", "fourth, ", "fifth."], { delayMs: 400 }));
    await message.fill("Count to five, slowly.");
    await message.press("Control+Enter");
    await expect(page.getByTestId("composer-reply")).toContainText("First,");
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(turns).toHaveCount(8);
    await expect(turns.nth(7).getByTestId("chat-mark")).toContainText("Incomplete reply");
    await expect(turns.nth(7)).not.toContainText("fifth.");
  } finally {
    await fake.close();
    await saveModelSettings(page, { chatModel: "", baseUrl: "" });
  }
});

test("with no provider configured the composer says so and links to Settings", async ({ page, threads }) => {
  const { id } = await threads.create({ toolName: "chat", title: "Offline" }, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/threads/${id}`);
  const notice = page.getByTestId("composer-unavailable");
  await expect(notice).toContainText("No LLM provider is configured");
  await notice.getByRole("link", { name: "Open Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByLabel("Default chat model")).toBeVisible();
});
