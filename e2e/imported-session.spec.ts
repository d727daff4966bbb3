/**
 * An imported agent session, read as a person would: tool calls as cards holding their results,
 * thinking collapsed, the compaction boundary, the sub-agent as a linked child thread, and usage
 * per response and per thread. The sessions are the real fixtures, posted to /api/import on the
 * imports server; every expected value is read from the fixture files here, not from the page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { cutTitle } from "../lib/domain/threads/title";
import { importedThreadId } from "../lib/importers/stable-id";
import { IMPORTS_URL } from "../playwright.config";
import { expect, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const PROJECTS = path.join(process.cwd(), "fixtures/real/claude-code/projects");
const DIR = "-home-USER-projects-spotter-worktrees-spotter-4te";
const SESSION = `${DIR}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl`;
const AGENT = `${DIR}/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl`;
/** Claude Code 1.0.108: inline sidechains (linked by tool-call id) and failed tool calls. */
const DEMO = "-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl";
/** Claude Code 2.1.38: /model run as a local command, stored as system entries with terminal codes. */
const MODEL_COMMAND = "-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl";

type Block = {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
};
type Usage = { input_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number; output_tokens: number };
type Entry = {
  type: string;
  uuid?: string;
  parentUuid?: string | null;
  subtype?: string;
  isSidechain?: boolean;
  requestId?: string;
  compactMetadata?: { trigger?: string; preTokens?: number; postTokens?: number };
  isCompactSummary?: boolean;
  isMeta?: boolean;
  content?: string;
  toolUseResult?: { agentId?: string };
  message?: { id?: string; model?: string; content?: string | Block[]; usage?: Usage };
};

const fixtureText = (relative: string) => readFileSync(path.join(PROJECTS, relative), "utf8");
const entries = (relative: string): Entry[] =>
  fixtureText(relative)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Entry);
const blocks = (entry: Entry): Block[] => (Array.isArray(entry.message?.content) ? entry.message.content : []);
const n = (value: number) => value.toLocaleString("en-US");
/** The text inside the first <tag>…</tag> of a string. */
const inner = (text: string, tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text)![1]!;
const ESC = "\u001b";
const flat = (text: string) => text.replace(/\s+/g, " ").trim();
/** A tool result's text as the source has it (a string or text blocks). */
const resultText = (block: Block) =>
  typeof block.content === "string"
    ? block.content
    : (block.content as Block[])
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("\n\n");

/**
 * Posts a fixture to /api/import and answers the ids of the threads it makes, derived from their
 * keys as the importer derives them. The threads are deleted after the test, so every test imports
 * its files anew (a file imported before, its threads still there, would answer "unchanged").
 */
async function importFixture(request: APIRequestContext, threads: Threads, relative: string, keys: string[]): Promise<string[]> {
  // The name is the path below projects/, as Claude Code lays it out: it links an agent file to its session.
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(relative)}`, {
    // As bytes: with a JSON content type Playwright re-encodes a string that is not one JSON value
    // (JSONL is not) as a JSON string literal.
    data: Buffer.from(fixtureText(relative), "utf8"),
    headers: { "content-type": "application/json" },
  });
  const ids = keys.map((key) => importedThreadId("claude-code", key));
  for (const id of ids) threads.track(id);
  expect(response.status(), await response.text()).toBe(201);
  const report = (await response.json()) as { format: string | null; status: string; threadIds: string[] };
  expect(report.status).toBe("imported");
  expect(report.format).toBe("claude-code");
  expect([...report.threadIds].sort()).toEqual([...ids].sort());
  return ids;
}

test("an imported Claude Code session: tool cards, thinking, compaction, sub-agent and usage", async ({ page, request, threads }) => {
  const session = entries(SESSION);
  const sessionKey = path.basename(SESSION, ".jsonl");
  const agentName = path.basename(AGENT, ".jsonl").replace(/^agent-/, "");
  const [sessionId] = await importFixture(request, threads, SESSION, [sessionKey]);
  const [agentId] = await importFixture(request, threads, AGENT, [`${sessionKey}:agent:${agentName}`]);

  await page.goto(`/threads/${sessionId}`);
  const turns = page.getByRole("list", { name: "Turns" });
  // Headings inside turns are demoted below the page's: one h1, the thread's title.
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(turns.getByRole("heading", { level: 3, includeHidden: true }).first()).toBeAttached();

  await test.step("a tool call is a card: name, the call as read, its result inside, the raw arguments on demand", async () => {
    const call = session.flatMap(blocks).find((b) => b.type === "tool_use")!;
    const result = session.flatMap(blocks).find((b) => b.type === "tool_result" && b.tool_use_id === call.id)!;
    const card = turns.getByTestId("tool-call").filter({ hasText: call.id! });
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId("tool-name")).toHaveText(call.name!);
    // Collapsed: the call is there but hidden until the card is opened; the raw JSON until asked for.
    await expect(card.getByTestId("tool-view")).toBeHidden();
    await card.locator("summary").click();
    await expect(card.getByTestId("tool-view")).toContainText(
      String(Object.values(call.input as Record<string, unknown>).find((v) => typeof v === "string")),
    );
    await expect(card.getByTestId("tool-arguments")).toBeHidden();
    await card.getByTestId("tool-raw").getByRole("button", { name: "Raw arguments" }).click();
    await expect(card.getByTestId("tool-arguments").locator("pre")).toHaveText(JSON.stringify(call.input, null, 2));
    const firstLine = resultText(result).split("\n")[0]!;
    expect(firstLine.length).toBeGreaterThan(5);
    await expect(card.getByTestId("tool-result")).toContainText(firstLine);
    await expect(card.getByTestId("tool-result").getByText("error", { exact: true })).toHaveCount(0);

    // The result's own turn is a compact card that points back at the call's turn.
    const ref = turns
      .getByTestId("tool-result-ref")
      .filter({ hasText: `Result of ${call.name}` })
      .first();
    await ref.locator("summary").click();
    await ref.getByRole("link", { name: /^turn #\d+$/ }).click();
    // (`has` takes a locator relative to the article.)
    const callTurn = page.getByRole("article").filter({ has: page.getByTestId("tool-call").filter({ hasText: call.id! }) });
    await expect(page).toHaveURL(new RegExp(`#${await callTurn.getAttribute("id")}$`));
  });

  await test.step("thinking is collapsed until opened (by keyboard)", async () => {
    const thinking = session.flatMap(blocks).find((b) => b.type === "thinking" && (b.thinking ?? "").length > 20)!;
    const details = turns.getByTestId("thinking").filter({ hasText: thinking.thinking!.slice(0, 40) });
    await expect(details).toHaveCount(1);
    await expect(details.locator("summary")).toContainText(`Thinking(${n(thinking.thinking!.length)} characters)`);
    await expect(details.getByText(thinking.thinking!.slice(0, 40))).toBeHidden();
    await details.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(details.getByText(thinking.thinking!.slice(0, 40))).toBeVisible();
  });

  await test.step("the compaction boundary is a marker with the tokens before (the file has no after)", async () => {
    const boundary = session.find((e) => e.type === "system" && e.subtype === "compact_boundary")!;
    const { trigger, preTokens, postTokens } = boundary.compactMetadata!;
    expect(postTokens).toBeUndefined();
    const marker = turns.getByTestId("compaction");
    await expect(marker).toHaveCount(1);
    await expect(marker).toHaveText(`Compacted (${trigger}) · ${n(preTokens!)} tokens before`);
    // The summary that replaced the history is collapsed below it.
    const summary = session.find((e) => e.isCompactSummary)!.message!.content as string;
    const summaryDetails = page
      .getByRole("article")
      .filter({ has: page.getByTestId("compaction") })
      .getByTestId("compaction-summary");
    await expect(summaryDetails.getByText(summary.slice(0, 50))).toBeHidden();
    await summaryDetails.locator("summary").click();
    await expect(summaryDetails.getByText(summary.slice(0, 50))).toBeVisible();
  });

  await test.step("a response's usage is shown as reported", async () => {
    // The first response whose streamed copies agree on usage, with some text to find its turn by.
    const byMessage = new Map<string, Entry[]>();
    for (const e of session)
      if (e.type === "assistant" && e.message?.id) byMessage.set(e.message.id, [...(byMessage.get(e.message.id) ?? []), e]);
    const [copies] = [...byMessage.values()].filter(
      (list) =>
        new Set(list.map((e) => JSON.stringify(e.message!.usage))).size === 1 &&
        list.some((e) => blocks(e).some((b) => b.type === "text" && b.text!.trim().length > 10)),
    );
    const usage = copies![0]!.message!.usage!;
    const text = copies!
      .flatMap(blocks)
      .find((b) => b.type === "text" && b.text!.trim().length > 10)!
      .text!.trim();
    const expected = [
      usage.input_tokens ? `in ${n(usage.input_tokens)}` : null,
      usage.cache_read_input_tokens ? `cache read ${n(usage.cache_read_input_tokens)}` : null,
      usage.cache_creation_input_tokens ? `cache write ${n(usage.cache_creation_input_tokens)}` : null,
      usage.output_tokens ? `out ${n(usage.output_tokens)}` : null,
    ]
      .filter(Boolean)
      .join(" · ");
    const line = page.getByRole("article").filter({ hasText: text }).getByTestId("turn-usage");
    await expect(line.getByTestId("usage-figures")).toHaveText(expected);
    await expect(line.getByTestId("usage-source")).toHaveText("reported");
    await expect(line.getByTestId("usage-source")).toHaveAttribute("title", /^Reported by the source/);
  });

  await test.step("the thread's usage totals count each response once", async () => {
    // Each response once (message id + request id). Its streamed copies repeat its usage as it
    // stood then (the fixture's first response says out 9 on its first lines, 209 on its last):
    // the last, largest, is the response's.
    const responses = new Map<string, Usage>();
    for (const e of session) {
      if (e.type !== "assistant" || e.isSidechain || e.message?.model === "<synthetic>" || !e.message?.usage) continue;
      const key = `${e.message.id}|${e.requestId}`;
      const known = responses.get(key);
      responses.set(
        key,
        known ? { ...known, output_tokens: Math.max(known.output_tokens, e.message.usage.output_tokens) } : e.message.usage,
      );
    }
    const sum = (pick: (u: Usage) => number | undefined) => [...responses.values()].reduce((total, u) => total + (pick(u) ?? 0), 0);
    const totals = page.getByTestId("thread-usage");
    await expect(totals).toContainText(`${responses.size} responses`);
    await expect(totals.getByTestId("usage-figures")).toHaveText(
      `in ${n(sum((u) => u.input_tokens))} · cache read ${n(sum((u) => u.cache_read_input_tokens))} · cache write ${n(sum((u) => u.cache_creation_input_tokens))} · out ${n(sum((u) => u.output_tokens))}`,
    );
    await expect(totals.getByTestId("usage-source").first()).toHaveText("reported");
  });

  await test.step("the Task call links to its sub-agent, which links back to what spawned it", async () => {
    const agentEntries = entries(AGENT);
    const prompt = agentEntries.find((e) => e.type === "user")!.message!.content as string;
    // The session's Task result names the agent that ran it.
    const resultEntry = session.find((e) => e.toolUseResult?.agentId === agentName)!;
    const taskCallId = blocks(resultEntry).find((b) => b.type === "tool_result")!.tool_use_id!;
    const card = turns.getByTestId("tool-call").filter({ hasText: taskCallId });
    await expect(card.getByTestId("tool-name")).toHaveText("Task");
    const link = card.getByRole("link", { name: /^Sub-agent: / });
    // The sub-agent's title is its prompt cut at a word boundary with an ellipsis (cutTitle), whole in a tooltip where shown shorter.
    const agentTitle = cutTitle(prompt, 100);
    expect(flat(prompt).startsWith(agentTitle.replace(/…$/, ""))).toBe(true);
    await expect(link).toHaveText(`Sub-agent: ${agentTitle}`);
    const child = page.getByTestId("subagent-children").getByRole("link");
    await expect(child).toHaveText(cutTitle(agentTitle, 80));
    await expect(child).toHaveAttribute("title", agentTitle);

    // The first h1 is the thread's title (Markdown in turns may have its own).
    const sessionTitle = await page.getByRole("heading", { level: 1 }).first().textContent();
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/threads/${agentId}$`));
    await expect(page.getByRole("heading", { level: 1 }).first()).toHaveText(agentTitle);
    const back = page.locator("dl div").filter({ hasText: /^Spawned by/ });
    await expect(back.getByRole("link")).toHaveAttribute("title", sessionTitle!);
    await expect(back.getByRole("link")).toHaveText(cutTitle(sessionTitle!, 80));
    await back.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/threads/${sessionId}$`));
  });

  await test.step("it fits a phone: no sideways scrolling with cards open", async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`/threads/${sessionId}`);
    for (const summary of await turns.locator("details > summary").all()) await summary.click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test("an imported session's labels: agent, sub-agent mark, tools, chain and lineage, budget model", async ({ page, request, threads }) => {
  const sessionKey = path.basename(SESSION, ".jsonl");
  const agentName = path.basename(AGENT, ".jsonl").replace(/^agent-/, "");
  const [sessionId] = await importFixture(request, threads, SESSION, [sessionKey]);
  const [agentId] = await importFixture(request, threads, AGENT, [`${sessionKey}:agent:${agentName}`]);

  await test.step("the list names the agent, marks the sub-agent with its parent, and shows no expiry", async () => {
    await page.goto("/threads");
    const agent = page.getByRole("combobox", { name: "Agent", exact: true });
    // The Agent filter lists sources by their human labels (imports:*, never raw), when there is more than one.
    if (await agent.count()) {
      const labels = await agent.locator("option").allTextContents();
      expect(labels).toContain("Claude Code");
      for (const label of labels) expect(label).not.toMatch(/^import:/);
      await agent.selectOption({ label: "Claude Code" });
      await expect(page).toHaveURL(/source=import%3Aclaude-code/);
    }
    const list = page.getByRole("list", { name: "Threads" });
    const agentRow = list.getByRole("listitem").filter({ has: page.locator(`a[href="/threads/${agentId}"]`) });
    await expect(agentRow.getByTestId("subagent-mark")).toContainText("sub-agent");
    const sessionTitle = (await (await request.get(`/api/threads/${sessionId}`)).json()).thread.title as string;
    await expect(agentRow.getByTestId("subagent-mark")).toContainText(`of “${cutTitle(sessionTitle, 48)}”`);
    await expect(agentRow).toContainText("Claude Code");
    await expect(list).not.toContainText("never expires");
    await expect(list).not.toContainText("import:claude-code");
  });

  await test.step("the Tool filter finds Claude Code's Bash whatever the case", async () => {
    await page.goto("/threads?tool=bash");
    const list = page.getByRole("list", { name: "Threads" });
    await expect(list.locator(`a[href="/threads/${sessionId}"]`)).toBeVisible();
    const tool = page.getByRole("combobox", { name: "Tool", exact: true });
    await expect(tool).toHaveValue("bash");
    const options = (await tool.locator("option").allTextContents()).map((o) => o.toLowerCase());
    expect(options.filter((o) => o === "bash")).toHaveLength(1);
    expect(options).not.toContain("claude-code");
  });

  await test.step("the chain counts threads from 1 and draws the sub-agent apart, with a legend", async () => {
    await page.goto(`/threads/${agentId}/chain`);
    await expect(page.getByText(/^Thread 1 of 2:/)).toBeVisible();
    await expect(page.getByText(/^Thread 0 of/)).toHaveCount(0);
    const path = page.getByRole("list", { name: "Threads in the chain, oldest first" });
    await expect(path.locator('li[data-link="subagent"]')).toContainText("sub-agent");
    await expect(page.getByTestId("chain-legend")).toContainText("sub-agent: run by the thread before it");
    await page.goto(`/threads/${sessionId}/lineage`);
    await expect(page.getByTestId("lineage-legend")).toContainText("sub-agent (run by the thread above)");
    await expect(page.getByTestId("lineage").locator("svg text", { hasText: "sub-agent" }).first()).toBeAttached();
  });

  await test.step("the budget page opens on the session's own last model, by its catalog entry", async () => {
    const { modelsUsed } = (await (await request.get(`/api/threads/${sessionId}`)).json()).thread as { modelsUsed: string[] };
    const last = modelsUsed.filter((m) => !m.startsWith("<")).at(-1)!;
    // A dated id (claude-haiku-4-5-20251001) is its family's entry.
    const family = last.replace(/-\d{8}$/, "");
    await page.goto(`/threads/${sessionId}/budget`);
    await expect(page.getByRole("combobox", { name: "Model" })).toHaveValue(family);
    if (family !== last)
      await expect(page.getByTestId("budget-model-note")).toHaveText(`This thread last used ${last}, previewed as ${family}.`);
  });
});

test("failed tool calls are marked as errors, and inline sidechains link to their Task call", async ({ page, request, threads }) => {
  const demo = entries(DEMO);
  const demoKey = path.basename(DEMO, ".jsonl");
  const roots = demo.filter((e) => e.type === "user" && e.isSidechain && e.parentUuid === null);
  // The main thread and one sub-agent thread per sidechain root.
  const [mainId] = await importFixture(request, threads, DEMO, [demoKey, ...roots.map((e) => `${demoKey}:sidechain:${e.uuid}`)]);
  await page.goto(`/threads/${mainId}`);
  const turns = page.getByRole("list", { name: "Turns" });

  const failed = demo.flatMap(blocks).find((b) => b.type === "tool_result" && b.is_error === true)!;
  const call = demo.flatMap(blocks).find((b) => b.type === "tool_use" && b.id === failed.tool_use_id)!;
  const card = turns.getByTestId("tool-call").filter({ hasText: call.id! });
  await expect(card.locator("summary")).toContainText(call.name!);
  await expect(card.locator("summary")).toContainText("error");
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("error");
  await expect(card.getByTestId("tool-result")).toContainText(resultText(failed).split("\n")[0]!);
  await expect(card.getByTestId("tool-result")).toHaveClass(/bg-red-50/);

  // Sidechain roots (isSidechain users without a parent) started from Task calls in the main thread.
  const tasks = demo.flatMap(blocks).filter((b) => b.type === "tool_use" && b.name === "Task");
  expect(roots.length).toBeGreaterThan(0);
  expect(tasks.length).toBeGreaterThanOrEqual(roots.length);
  await expect(turns.getByRole("link", { name: /^Sub-agent: / })).toHaveCount(roots.length);
});

test("images are labelled placeholders, never fetched; long results load in full on demand", async ({ page, threads }) => {
  const imageUrl = `${IMPORTS_URL}/never-fetched.png`;
  let fetched = 0;
  await page.route("**/never-fetched.png", (route) => {
    fetched++;
    return route.abort();
  });
  const longResult = Array.from({ length: 400 }, (_, i) => `result line ${i}`).join("\n") + "\nTHE END OF THE RESULT";
  const thread = await threads.create({ toolName: "parts-probe", title: "Parts probe" });
  await threads.appendTurn(thread.id, {
    role: "user",
    content: "[image]",
    parts: [{ type: "image", mediaType: "image/png", alt: "a screenshot", url: imageUrl, path: "/tmp/s.png" }],
  });
  await threads.appendTurn(thread.id, {
    role: "assistant",
    content: "[grep] ...",
    parts: [
      { type: "tool_call", id: "call-1", name: "grep", arguments: { pattern: "x" } },
      { type: "tool_call", id: "call-2", name: "never_answered" },
    ],
  });
  await threads.appendTurn(thread.id, {
    role: "tool",
    content: longResult,
    parts: [{ type: "tool_result", toolCallId: "call-1", content: longResult }],
  });

  const response = await page.goto(`/threads/${thread.id}`);
  expect(await response!.text()).not.toContain("THE END OF THE RESULT");
  await expect(page.getByTestId("image-placeholder")).toHaveText("image: a screenshot");
  await expect(page.locator("main img")).toHaveCount(0);
  expect(fetched).toBe(0);

  await expect(page.getByTestId("tool-call").filter({ hasText: "never_answered" }).locator("summary")).toContainText("no result");
  const card = page.getByTestId("tool-call").filter({ hasText: "call-1" });
  await card.locator("summary").click();
  const result = card.getByTestId("tool-result");
  await expect(result).toContainText("result line 0");
  await expect(result).not.toContainText("THE END OF THE RESULT");
  await result.getByRole("button", { name: `Show all (${n(longResult.length)} characters)` }).click();
  await expect(result).toContainText("THE END OF THE RESULT");
  await result.getByRole("button", { name: "Show less" }).click();
  await expect(result).not.toContainText("THE END OF THE RESULT");
});

test("slash commands are chips, local output a terminal block, caveats folded: no raw tags or escape codes", async ({
  page,
  request,
  threads,
}) => {
  const session = entries(SESSION);
  const [sessionId] = await importFixture(request, threads, SESSION, [path.basename(SESSION, ".jsonl")]);
  const stringContent = (e: Entry) =>
    typeof e.message?.content === "string" ? e.message.content : typeof e.content === "string" ? e.content : "";
  const command = stringContent(session.find((e) => stringContent(e).includes("<command-name>/compact</command-name>"))!);
  const args = inner(command, "command-args");
  const stdout = inner(stringContent(session.find((e) => stringContent(e).startsWith("<local-command-stdout>"))!), "local-command-stdout");
  const caveat = inner(
    stringContent(session.find((e) => e.isMeta && stringContent(e).includes("<local-command-caveat>"))!),
    "local-command-caveat",
  );
  // What the fixture holds: the raw forms the page must not show.
  expect(args.length).toBeGreaterThan(10);
  expect(stdout).toContain(`${ESC}[2m`);

  await page.goto(`/threads/${sessionId}`);
  const turns = page.getByRole("list", { name: "Turns" });

  await test.step("the command is a chip with its arguments", async () => {
    const chip = turns.getByTestId("command").filter({ hasText: "/compact" });
    await expect(chip).toHaveCount(1);
    await expect(chip.getByTestId("command-name")).toHaveText("/compact");
    await expect(chip.getByTestId("command-args")).toHaveText(args);
  });

  await test.step("its output is a terminal block, dim where the terminal had it dim", async () => {
    const firstLine = stdout.split("\n")[0]!.replaceAll(`${ESC}[2m`, "").replaceAll(`${ESC}[22m`, "");
    expect(firstLine).toBe("Compacted (ctrl+o to see full summary)");
    const block = turns.getByTestId("terminal-output").filter({ hasText: firstLine });
    await expect(block).toHaveCount(1);
    const dim = block.getByText(firstLine, { exact: true });
    // Dim as a lighter grey (components/threads/ansi-palette.ts), not faded: faded text falls under 4.5:1.
    await expect(dim).toHaveCSS("color", "rgb(82, 82, 91)");
    await expect(dim).toHaveCSS("opacity", "1");
  });

  await test.step("the caveat is folded: hidden until opened (by keyboard)", async () => {
    const folded = turns.getByTestId("folded-turn").filter({ hasText: "Caveat" }).first();
    await expect(folded.locator("summary")).toContainText("Caveat");
    const text = folded.getByText(caveat.slice(0, 40));
    await expect(text).toBeHidden();
    await folded.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(text).toBeVisible();
  });

  await test.step("nowhere on the page, hidden parts included, a raw tag or escape code", async () => {
    const shown = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
        acceptNode: (node) =>
          node.parentElement?.closest("script, style, template") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
      });
      const texts: string[] = [];
      while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? "");
      return texts.join("");
    });
    expect(shown).toContain("/compact");
    for (const raw of ["[2m", "[22m", ESC, "<command-name>", "<command-args>", "<local-command-stdout>", "<local-command-caveat>"])
      expect(shown).not.toContain(raw);
  });
});

test("a local command stored as system entries (/model) is a chip and a styled terminal block", async ({ page, request, threads }) => {
  const lines = entries(MODEL_COMMAND);
  const output = lines.find((e) => e.type === "system" && e.content?.startsWith("<local-command-stdout>"))!.content!;
  const bold = /\u001b\[1m([^\u001b]*)\u001b\[22m/.exec(output)![1]!;
  const [id] = await importFixture(request, threads, MODEL_COMMAND, [path.basename(MODEL_COMMAND, ".jsonl")]);
  await page.goto(`/threads/${id}`);
  const turns = page.getByRole("list", { name: "Turns" });
  await expect(turns.getByTestId("command-name").filter({ hasText: "/model" })).toHaveCount(1);
  const block = turns.getByTestId("terminal-output").filter({ hasText: bold });
  await expect(block).toBeVisible();
  await expect(block.getByText(bold, { exact: true })).toHaveCSS("font-weight", "700");
  await expect(turns).not.toContainText("[1m");
  await expect(turns).not.toContainText("<command-name>");
});

test("a Codex session's injected environment context is folded above the turns, never shown as raw tags", async ({
  page,
  request,
  threads,
}) => {
  const relative = "sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl";
  const text = readFileSync(path.join(process.cwd(), "fixtures/real/codex", relative), "utf8");
  const context = text
    .split("\n")
    .filter((line) => line.includes("<environment_context>"))
    .map((line) => JSON.parse(line) as { payload: { content: { text: string }[] } })[0]!.payload.content[0]!.text;
  const cwd = inner(context, "cwd");
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(relative)}`, {
    data: Buffer.from(text, "utf8"),
    headers: { "content-type": "application/json" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { threadIds } = (await response.json()) as { threadIds: string[] };
  for (const id of threadIds) threads.track(id);

  await page.goto(`/threads/${threadIds[0]}`);
  const folded = page.getByTestId("folded-context").filter({ hasText: "Environment context" });
  await expect(folded).toHaveCount(1);
  await expect(folded.getByText(cwd)).toBeHidden();
  await folded.locator("summary").click();
  await expect(folded.getByText(cwd)).toBeVisible();
  await expect(page.locator("main")).not.toContainText("<environment_context>");
});

test("a Gemini CLI slash command is its chip, the prompt it expanded to folded", async ({ page, request, threads }) => {
  const relative = "tmp/9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea/chats/session-2026-04-23T12-52-0ab84937.jsonl";
  const text = readFileSync(path.join(process.cwd(), "fixtures/real/gemini-cli", relative), "utf8");
  const record = text
    .split("\n")
    .filter((line) => line.includes('"displayContent":[{"text":"/init"}]'))
    .map((line) => JSON.parse(line) as { content: { text: string }[] })[0]!;
  const expanded = record.content[0]!.text.trim().split("\n")[0]!;
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(relative)}`, {
    data: Buffer.from(text, "utf8"),
    headers: { "content-type": "application/json" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { threadIds } = (await response.json()) as { threadIds: string[] };
  for (const id of threadIds) threads.track(id);

  await page.goto(`/threads/${threadIds[0]}`);
  const turns = page.getByRole("list", { name: "Turns" });
  await expect(turns.getByTestId("command-name")).toHaveText(["/init"]);
  const folded = turns.getByTestId("folded-block").filter({ hasText: "Expanded prompt" });
  await expect(folded.getByText(expanded.slice(0, 40))).toBeHidden();
  await folded.locator("summary").click();
  await expect(folded.getByText(expanded.slice(0, 40))).toBeVisible();
});
