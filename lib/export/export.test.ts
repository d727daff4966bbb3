import { describe, expect, it } from "vitest";
import type { SessionFigures, Thread, Turn, TurnPart } from "@/lib/domain/types";
import { EXPORT_CSP, renderHtml } from "./html";
import { fenced, renderMarkdown } from "./markdown";
import type { ReadableDocument, ReadableThread } from "./types";

function thread(id: string, title: string | null, extra: Partial<Thread> = {}): Thread {
  return {
    id,
    parentThreadId: null,
    title,
    toolName: "claude-code",
    initialContext: {},
    metadata: null,
    source: "import:claude-code",
    project: "/home/ada/shop",
    createdAt: "2026-11-20T10:00:00.000Z",
    lastUpdatedAt: "2026-11-20T11:00:00.000Z",
    expiresAt: null,
    expired: false,
    turnCount: 0,
    modelsUsed: ["claude-sonnet-4-5"],
    ...extra,
  } as Thread;
}

let seq = 0;
function turn(
  threadId: string,
  index: number,
  role: Turn["role"],
  content: string,
  parts: TurnPart[] | null = null,
  extra: Partial<Turn> = {},
): Turn {
  return {
    id: `${threadId}-turn-${index}-${seq++}`,
    threadId,
    index,
    role,
    content,
    timestamp: `2026-11-20T10:${String(40 + index).padStart(2, "0")}:00.000Z`,
    files: [],
    images: [],
    toolName: null,
    modelProvider: null,
    modelName: role === "assistant" ? "claude-sonnet-4-5" : null,
    modelMetadata: null,
    parts,
    fileSnapshots: [],
    tokenEstimate: 1,
    tokens: 1,
    usage: null,
    ...extra,
  };
}

const readable = (
  t: Thread,
  turns: Turn[],
  subagents: ReadableThread["subagents"] = [],
  figures: SessionFigures | null = null,
): ReadableThread => ({
  thread: t,
  turns,
  figures,
  subagents,
});
const doc = (threads: ReadableThread[], extra: Partial<ReadableDocument> = {}): ReadableDocument => ({
  threads,
  redacted: true,
  shared: false,
  ...extra,
});

const HOSTILE = [
  "<script>alert('content')</script>",
  '<img src=x onerror="alert(1)">',
  "[click me](javascript:alert(1))",
  "</style><style>body{display:none}</style>",
  "<iframe src=https://evil.example></iframe>",
].join("\n\n");

/** A session: a prompt, a reply calling Bash and Edit and Task (which started a sub-agent), their results. */
function session(): ReadableThread {
  const main = thread("main", "Fix the <b>checkout</b> & ship");
  const calls: TurnPart[] = [
    { type: "text", text: "Running the tests, then **fixing**." },
    { type: "tool_call", id: "c-bash", name: "Bash", arguments: { command: "npm test -- --run", description: "Run the tests" } },
    {
      type: "tool_call",
      id: "c-edit",
      name: "Edit",
      arguments: { file_path: "src/cart.ts", old_string: "total - 1", new_string: "total" },
    },
    { type: "tool_call", id: "c-task", name: "Task", arguments: { description: "Look up prices", prompt: "Find the prices" } },
  ];
  const results: TurnPart[] = [
    { type: "tool_result", toolCallId: "c-bash", content: "\u001b[31m1 failed\u001b[39m", isError: true },
    { type: "tool_result", toolCallId: "c-edit", content: "ok" },
    { type: "tool_result", toolCallId: "c-task", content: "Prices found", agentId: "ag1" },
  ];
  const child = thread("child", "Look up prices");
  const sub = readable(child, [
    turn("child", 0, "user", "Find the prices in ``` fences"),
    turn("child", 1, "assistant", "They are **$3**."),
  ]);
  return readable(
    main,
    [
      turn("main", 0, "user", `Please fix the checkout.\n\n${HOSTILE}`),
      turn("main", 1, "assistant", "", calls, {
        usage: { inputTokens: 3, cacheReadTokens: 17_842, cacheWriteTokens: 0, outputTokens: 209, reasoningTokens: 0, source: "reported" },
      }),
      turn("main", 2, "tool", "", results),
      turn("main", 3, "assistant", "Fixed: see `[REDACTED:github-token:3f09c2a41f]` was not needed."),
    ],
    [{ callId: "c-task", thread: sub }],
  );
}

describe("renderHtml", () => {
  const html = renderHtml(doc([session()]));

  it("is one self-contained page: a strict CSP, inline CSS, no script, no address to fetch", () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`);
    expect(EXPORT_CSP).not.toContain("script-src");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    // The only address is the one the hostile content wrote, shown as text.
    expect(html.match(/https?:\/\/[^\s"<>&]+/g)).toEqual(["https://evil.example"]);
    expect(html).toContain("@media (prefers-color-scheme: dark)");
    expect(html).toContain("@media print");
    expect(html).not.toContain('name="robots"');
  });

  it("keeps hostile content as text: raw HTML escaped, javascript: links dropped, </style> inert", () => {
    expect(html).toContain("<p>&#x3C;script>alert('content')&#x3C;/script></p>");
    expect(html).toContain('<p>&#x3C;img src=x onerror="alert(1)"></p>');
    expect(html).not.toContain("javascript:");
    expect(html).toContain('<span title="link removed">click me</span>');
    // One </style>: the page's own.
    expect(html.split("</style>")).toHaveLength(2);
    expect(html).toContain("<title>Fix the &lt;b&gt;checkout&lt;/b&gt; &amp; ship</title>");
    expect(html).toContain("<h1>Fix the &lt;b&gt;checkout&lt;/b&gt; &amp; ship</h1>");
  });

  it("shows each turn with its number, role, model and time, a table of contents, and the usage line", () => {
    for (const text of ["Please fix the checkout.", "Running the tests, then <strong>fixing</strong>.", "They are <strong>$3</strong>."])
      expect(html).toContain(text);
    expect(html).toContain('<nav class="toc" aria-label="Contents">');
    expect(html).toMatch(/<a href="#turn-main-turn-0-\d+">#1<\/a> <span class="note">user<\/span> Please fix the checkout\./);
    expect(html).toMatch(
      /<span class="role">Assistant<\/span><span class="attribution">claude-sonnet-4-5<\/span><time datetime="2026-11-20T10:41:00.000Z">20 Nov 2026, 10:41 UTC<\/time>/,
    );
    expect(html).toContain("Usage in 3 · cache read 17,842 · out 209 (reported)");
    expect(html).toContain("<dt>Agent</dt><dd>Claude Code</dd>");
    expect(html).toContain("[REDACTED:github-token:3f09c2a41f]");
  });

  it("shows tool calls as the page does: the command, the edit as a coloured diff, the result folded with escape codes dropped", () => {
    expect(html).toContain('<code class="tool-name">Bash</code> <span class="hint">npm test -- --run</span>');
    expect(html).toContain('<pre class="plain">npm test -- --run</pre>');
    expect(html).toContain('<span class="diff-removed">-total - 1</span>');
    expect(html).toContain('<span class="diff-added">+total</span>');
    expect(html).toMatch(
      /<details class="fold result failed" open><summary>Result <span class="note">\(turn #3\)<\/span> <span class="error-label">error<\/span>/,
    );
    expect(html).toContain('<pre class="plain failed">1 failed</pre>');
    expect(html).not.toContain("\u001b");
    // The results' turn points back at the calls.
    expect(html).toContain("Result of <code>Bash</code>: shown with its call in");
  });

  it("folds a sub-agent's turns under the call that started it", () => {
    const task = html.indexOf('<code class="tool-name">Task</code>');
    const fold = html.indexOf('<details class="fold subagent">');
    expect(task).toBeGreaterThan(-1);
    expect(fold).toBeGreaterThan(task);
    expect(html.slice(fold)).toMatch(
      /^<details class="fold subagent"><summary>Sub-agent: Look up prices <span class="note">\(2 turns\)<\/span>/,
    );
    expect(html.indexOf("They are <strong>$3</strong>.")).toBeGreaterThan(fold);
    // Its turns are not in the contents: those list the thread's own.
    expect(html.slice(0, html.indexOf("</nav>"))).not.toContain("Find the prices");
  });

  it("exports a chain oldest first, each thread under its own heading", () => {
    const first = readable(thread("a", "Part one"), [turn("a", 0, "user", "first words")]);
    const second = readable(thread("b", "Part two"), [turn("b", 0, "user", "second words")]);
    const chain = renderHtml(doc([first, second]));
    expect(chain).toContain("<h1>Part two</h1>");
    expect(chain).toContain("A chain of 2 threads, oldest first.");
    const at = (s: string) => chain.lastIndexOf(s);
    expect(at('<h2 class="thread-title">Part one</h2>')).toBeLessThan(at("first words"));
    expect(at("first words")).toBeLessThan(at('<h2 class="thread-title">Part two</h2>'));
    expect(at('<h2 class="thread-title">Part two</h2>')).toBeLessThan(at("second words"));
  });

  it("marks a shared page not to be indexed, and says where it comes from", () => {
    const shared = renderHtml(doc([session()], { shared: true }));
    expect(shared).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(shared).toContain("Shared read-only from Threadline");
  });
});

describe("renderMarkdown", () => {
  const md = renderMarkdown(doc([session()]));

  it("writes a title, the facts, and a heading per turn with its number, role, model and time", () => {
    expect(md).toContain("# Fix the \\<b\\>checkout\\</b\\> \\& ship\n");
    expect(md).toContain("- Agent: Claude Code\n- Project: /home/ada/shop\n- Models: claude-sonnet-4-5");
    expect(md).toContain("\n## #1 · User · 20 Nov 2026, 10:40 UTC\n");
    expect(md).toContain("\n## #2 · Assistant · claude-sonnet-4-5 · 20 Nov 2026, 10:41 UTC\n");
    expect(md).toContain("Running the tests, then **fixing**.");
    expect(md).toContain("_Usage in 3 · cache read 17,842 · out 209 (reported)_");
    expect(md).not.toContain("<details");
  });

  it("writes tool calls as fenced blocks: sh for commands, diff for edits, the result under a label", () => {
    expect(md).toContain("**Shell: `Bash`**\n\nRun the tests\n\n```sh\nnpm test -- --run\n```");
    expect(md).toContain("```diff\n");
    expect(md).toContain("-total - 1\n+total");
    expect(md).toContain("**Result** (error)\n\n```\n1 failed\n```");
  });

  it("nests a sub-agent's section under its call, a level down, its turns below it", () => {
    const call = md.indexOf("**Sub-agent: `Task`**");
    const section = md.indexOf("\n### Sub-agent: Look up prices\n");
    expect(call).toBeGreaterThan(-1);
    expect(section).toBeGreaterThan(call);
    expect(md.slice(section)).toContain("\n#### #1 · User · 20 Nov 2026, 10:40 UTC\n\nFind the prices in ``` fences");
    // Deeper levels stop at ######.
    let nested = readable(thread("n0", "level 0"), [turn("n0", 0, "assistant", "", [{ type: "tool_call", id: "c", name: "Task" }])]);
    for (let level = 1; level < 5; level++) {
      const inner = nested;
      nested = readable(
        thread(`n${level}`, `level ${level}`),
        [turn(`n${level}`, 0, "assistant", "", [{ type: "tool_call", id: "c", name: "Task" }])],
        [{ callId: "c", thread: inner }],
      );
    }
    const deep = renderMarkdown(doc([nested]));
    expect(deep).toContain("\n###### Sub-agent: level 0\n");
    expect(deep).not.toMatch(/^#{7}/m);
  });

  it("fences a text with a fence longer than any backtick run in it", () => {
    expect(fenced("plain")).toBe("```\nplain\n```");
    expect(fenced("a ``` b", "sh")).toBe("````sh\na ``` b\n````");
    expect(fenced("`````\nx\n")).toBe("``````\n`````\nx\n``````");
  });

  it("exports a chain oldest first", () => {
    const first = readable(thread("a", "Part one"), [turn("a", 0, "user", "first words")]);
    const second = readable(thread("b", "Part two"), [turn("b", 0, "user", "second words")]);
    const chain = renderMarkdown(doc([first, second], { shared: true }));
    // The document opens with the first title and its facts, then says what it is.
    expect(chain).toMatch(
      /^# Part one\n[\s\S]*?\n\n_Shared read-only from Threadline._\n\n_A chain of 2 threads, oldest first._\n\n_Secrets found[^\n]*\n\n## #1/,
    );
    expect(chain.indexOf("# Part one")).toBeLessThan(chain.indexOf("first words"));
    expect(chain.indexOf("first words")).toBeLessThan(chain.indexOf("# Part two"));
  });
});
