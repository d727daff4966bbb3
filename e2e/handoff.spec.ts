/**
 * "Copy as task context" (issue 23): the thread as the conversation history the orchestrator seed
 * hands a sub-agent. The expected text is computed here from the seed's rules with plain code, not
 * with lib/domain/history/handoff, so the page, the API and the domain are checked against a second
 * reading of the seed: tool turns skipped, content stripped, user turns cut at 150 code points
 * and assistant turns at 8,192 (an emoji at the cut stays whole), system turns untouched, then
 * the numbered layout with 👤/🤖 and only the first line of a content indented.
 */
import { expect, test } from "./fixtures";

// 149 letters then an emoji: the emoji is the 150th code point (UTF-16 units 150 and 151), so a cut
// counting UTF-16 units would split it.
const USER = `  ${"u".repeat(149)}😀 and then the rest of a question that goes on well past the limit.\n`;
const ASSISTANT = Array.from({ length: 700 }, (_, i) => `Line ${i + 1} of a long answer.`).join("\n");
const SYSTEM = "You review code carefully.\nSecond line, never cut.";
const TOOL = "tool output the orchestrator does not accept";

/** The seed's truncate_conversation_history + format_task_enrichment_prompt's section, written out. */
function seedSection(turns: { role: string; content: string }[]) {
  const kept: { role: string; content: string; truncated: boolean }[] = [];
  let cutCharacters = 0;
  for (const turn of turns) {
    if (!["user", "assistant", "system"].includes(turn.role)) continue;
    const points = Array.from(turn.content.trim()); // Python's len() counts code points
    const max = turn.role === "user" ? 150 : turn.role === "assistant" ? 8192 : Infinity;
    if (points.length > max) {
      cutCharacters += points.length - max;
      const marker = turn.role === "user" ? "... [truncated]" : "... [truncated at 8192 chars]";
      kept.push({ role: turn.role, content: points.slice(0, max).join("") + marker, truncated: true });
    } else {
      kept.push({ role: turn.role, content: points.join(""), truncated: false });
    }
  }
  let text = "\n💬 CONVERSATION HISTORY (Context leading to this task):\n";
  kept.forEach((m, i) => {
    text += `${i + 1}. ${m.role === "user" ? "👤" : "🤖"} ${m.role.toUpperCase()}${m.truncated ? " [TRUNCATED]" : ""}:\n   ${m.content}\n\n`;
  });
  return { text, kept: kept.length, truncated: kept.filter((m) => m.truncated).length, cutCharacters };
}

test("Copy as task context previews the orchestrator's handoff and copies exactly that text", async ({ page, context, threads }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const thread = await threads.create({ toolName: "e2e", title: "Handoff e2e" });
  const turns = [
    { role: "user", content: USER },
    { role: "assistant", content: ASSISTANT },
    { role: "system", content: SYSTEM },
    { role: "tool", content: TOOL, toolName: "shell" },
  ];
  for (const turn of turns) await threads.appendTurn(thread.id, turn);
  const expected = seedSection(turns);
  // The test's own reading of the seed, checked where it matters.
  expect(expected.text).toContain(`   ${"u".repeat(149)}😀... [truncated]\n`);
  expect(expected.text).toContain("3. 🤖 SYSTEM:\n   You review code carefully.\nSecond line, never cut.\n\n");

  await page.goto(`/threads/${thread.id}`);
  const open = page.getByRole("button", { name: "Copy as task context" });
  const dialog = page.getByRole("dialog", { name: "Copy as task context" });

  await test.step("the preview opens with focus inside, and Escape gives focus back", async () => {
    await open.click();
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });

  await test.step("it shows the counts and the exact text", async () => {
    await open.press("Enter");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("handoff-kept")).toHaveText(`${expected.kept} messages kept`);
    await expect(dialog.getByTestId("handoff-skipped")).toHaveText("1 skipped");
    await expect(dialog.getByTestId("handoff-cut")).toHaveText(
      `${expected.truncated} truncated, ${expected.cutCharacters.toLocaleString("en-US")} characters cut`,
    );
    // One sentence a person reads, linking the turn; never the seed's log line.
    await expect(dialog.getByTestId("handoff-skipped-list")).toHaveText("1 tool turn skipped: #4.");
    await expect(dialog.getByTestId("handoff-skipped-list").getByRole("link", { name: "#4" })).toHaveAttribute(
      "href",
      `/threads/${thread.id}#turn-4`,
    );
    await expect(dialog).not.toContainText("conversation_history");
    // textContent, not toHaveText: that one normalises whitespace, and the layout is the point.
    await expect.poll(() => dialog.getByTestId("handoff-text").evaluate((element) => element.textContent)).toBe(expected.text);
  });

  await test.step("Copy puts that text on the clipboard, byte for byte", async () => {
    await dialog.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(Buffer.from(copied, "utf8").equals(Buffer.from(expected.text, "utf8"))).toBe(true);
    expect(copied).not.toContain("conversation_history");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });

  await test.step("the budget page shows the injected size and the truncated turns", async () => {
    await page.goto(`/threads/${thread.id}/budget`);
    const section = page.getByRole("region", { name: "Orchestrator handoff" });
    await expect(section.getByTestId("handoff-tokens")).toHaveText(/^[\d,]+ tokens injected · counted with .+ (exact|estimate)$/);
    const model = await page.getByRole("combobox", { name: "Model" }).inputValue();
    const api = await page.request.get(`/api/threads/${thread.id}/handoff?model=${encodeURIComponent(model)}`);
    expect(api.status()).toBe(200);
    const { tokens } = (await api.json()) as { tokens: { count: number } };
    await expect(section.getByTestId("handoff-tokens")).toContainText(`${tokens.count.toLocaleString("en-US")} tokens injected`);
    const truncated = section.getByTestId("handoff-truncated");
    await expect(truncated).toHaveText("Truncated: #1 (user), #2 (assistant)");
    await expect(truncated.getByRole("link", { name: "#1" })).toHaveAttribute("href", `/threads/${thread.id}#turn-1`);
    await expect(truncated.getByRole("link", { name: "#2" })).toHaveAttribute("href", `/threads/${thread.id}#turn-2`);
    await expect(section.getByTestId("handoff-skipped-list")).toHaveText("1 tool turn skipped: #4.");
    await expect(section).not.toContainText("conversation_history");
    await section.getByText(/^The injected text/).click();
    await expect.poll(() => section.getByTestId("handoff-budget-text").evaluate((element) => element.textContent)).toBe(expected.text);
  });
});

test("a continuation's preview offers the whole chain", async ({ page, threads }) => {
  const parent = await threads.create({ toolName: "e2e", title: "Handoff parent" });
  await threads.appendTurn(parent.id, { role: "user", content: "The question that started it." });
  const child = await threads.create({ toolName: "e2e", title: "Handoff child", parentThreadId: parent.id });
  await threads.appendTurn(child.id, { role: "assistant", content: "The answer, in the continuation." });

  await page.goto(`/threads/${child.id}`);
  await page.getByRole("button", { name: "Copy as task context" }).click();
  const dialog = page.getByRole("dialog", { name: "Copy as task context" });
  await expect(dialog.getByTestId("handoff-kept")).toHaveText("1 message kept");
  await dialog.getByRole("checkbox", { name: /Whole chain/ }).check();
  await expect(dialog.getByTestId("handoff-kept")).toHaveText("2 messages kept");
  await expect(dialog.getByTestId("handoff-text")).toContainText("1. 👤 USER:\n   The question that started it.");
});
