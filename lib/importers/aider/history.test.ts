import { describe, expect, it } from "vitest";
import { detectFormat, numberedLines, parseDetected } from "../index";
import { ImportFormatError, isTranscriptPath, type ImportedThread } from "../types";
import { looksLikeAiderHistory, parseAiderHistory, splitReasoning } from "./index";
import { readCount, readTokensReport } from "./status";

const NAME = "/home/me/repo/.aider.chat.history.md";
/** Lines as Aider writes them: prompt and status lines end with two spaces. */
const history = (...lines: string[]) => lines.join("\n") + "\n";
const parse = (text: string, name = NAME) => parseAiderHistory(numberedLines(text), { name });
const roles = (thread: ImportedThread) => thread.turns.map((t) => `${t.role}:${t.key}`).join(" ");

const BANNER = [
  "> Aider v0.86.1  ",
  "> Main model: gpt-4o with diff edit format  ",
  "> Weak model: gpt-4o-mini  ",
  "> Git repo: .git with 12 files  ",
];

const ONE_RUN = history(
  "",
  "# aider chat started at 2025-07-15 11:38:37",
  "",
  ...BANNER,
  "",
  "#### fix the bug  ",
  "",
  "Here is the fix:",
  "",
  "app.py",
  "```python",
  "<<<<<<< SEARCH",
  "x = 1",
  "=======",
  "x = 2",
  ">>>>>>> REPLACE",
  "```",
  "",
  "> Tokens: 2.4k sent, 104 received. Cost: $0.00042 message, $0.00042 session.  ",
  "> Applied edit to app.py  ",
  "> Commit 1a2b3c4 fix: set x to 2  ",
);

describe("Aider chat history", () => {
  it("reads a run: start-up turn, prompt, reply with its edit block verbatim, rounded usage, status turn", () => {
    const parsed = parse(ONE_RUN);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.threads).toHaveLength(1);
    const thread = parsed.threads[0]!;
    expect(thread).toMatchObject({
      key: `${NAME}#2025-07-15 11:38:37`,
      identity: "name",
      toolName: "aider",
      title: "fix the bug",
      project: "/home/me/repo",
      createdAt: "2025-07-15T11:38:37.000Z",
      metadata: {
        historyFile: NAME,
        run: 1,
        startedAtLocal: "2025-07-15 11:38:37",
        aiderVersion: "0.86.1",
        model: "gpt-4o",
        editFormat: "diff",
        weakModel: "gpt-4o-mini",
        gitRepo: ".git with 12 files",
      },
    });
    expect(roles(thread)).toBe("system:4 user:9 assistant:11 system:23");
    const [startup, prompt, reply, status] = thread.turns;
    expect(startup!.content).toBe(BANNER.join("\n"));
    expect(startup!.metadata).toEqual({ aiderStatus: "startup" });
    expect(prompt!.content).toBe("fix the bug");
    expect(reply!.content).toBe("Here is the fix:\n\napp.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```");
    expect(reply).toMatchObject({ modelName: "gpt-4o", modelProvider: null, timestamp: "2025-07-15T11:38:37.000Z" });
    expect(reply!.usage).toEqual({ inputTokens: 2400, outputTokens: 104, reportedCostUsd: 0.00042 });
    expect(reply!.metadata).toEqual({
      usageRounded: true,
      usageLine: "> Tokens: 2.4k sent, 104 received. Cost: $0.00042 message, $0.00042 session.  ",
      sentTokens: 2400,
      sessionCostUsd: 0.00042,
    });
    expect(status!.content).toBe("> Applied edit to app.py  \n> Commit 1a2b3c4 fix: set x to 2  ");
    expect(status!.files).toEqual(["app.py"]);
    expect(status!.metadata).toEqual({
      aiderStatus: "status",
      appliedEdits: ["app.py"],
      commits: [{ sha: "1a2b3c4", message: "fix: set x to 2" }],
    });
  });

  it("keeps keys under append: a grown run appends turns, a new run adds a thread; runs of the same second are told apart", () => {
    const first = parse(ONE_RUN);
    const grown = ONE_RUN + history("", "#### and the tests  ", "", "Done.", "", "> Tokens: 3k sent, 5 received.  ");
    const appended = grown + history("", "# aider chat started at 2025-07-15 11:38:37", "", ...BANNER, "", "#### again  ");
    const parsed = parse(appended);
    expect(parsed.threads.map((t) => t.key)).toEqual([`${NAME}#2025-07-15 11:38:37`, `${NAME}#2025-07-15 11:38:37#2`]);
    expect(parsed.threads[0]!.turns.slice(0, 4)).toEqual(first.threads[0]!.turns);
    expect(roles(parsed.threads[0]!)).toBe("system:4 user:9 assistant:11 system:23 user:26 assistant:28");
    // No cost: a model without a price
    expect(parsed.threads[0]!.turns[5]!.usage).toEqual({ inputTokens: 3000, outputTokens: 5 });
    expect(parsed.threads[1]!.metadata).toMatchObject({ run: 2 });
  });

  it("joins consecutive prompt lines into one input, separate inputs stay separate; blank prompt lines kept", () => {
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "#### first line  ",
        "####   ",
        "####   indented  ",
        "",
        "#### /add a.py  ",
        "> Added a.py to the chat  ",
      ),
    ).threads[0]!;
    expect(thread.turns.map((t) => [t.role, t.content])).toEqual([
      ["user", "first line\n\n  indented"],
      ["user", "/add a.py"],
      ["system", "> Added a.py to the chat  "],
    ]);
    expect(thread.turns[1]!.metadata).toEqual({ aiderCommand: "/add" });
  });

  it("keeps an answer Aider repeated for a group as a status line, not a prompt", () => {
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "#### look at these  ",
        "",
        "Please add a.py and b.py.",
        "",
        "> Tokens: 1k sent, 10 received.  ",
        "> a.py  ",
        "> Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: a  ",
        "> b.py  ",
        "",
        "#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  ",
        "> Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: a  ",
      ),
    ).threads[0]!;
    expect(thread.turns.filter((t) => t.role === "user")).toHaveLength(1);
    const status = thread.turns[thread.turns.length - 1]!;
    expect(status.role).toBe("system");
    expect(status.content.split("\n")).toHaveLength(5);
    expect(status.metadata).toMatchObject({
      echoedAnswerLines: [12],
      answers: [
        { line: 9, question: "Add file to the chat?", answer: "a" },
        { line: 13, question: "Add file to the chat?", answer: "a" },
      ],
    });
  });

  it("splits a reasoning model's thoughts into a thinking part, closed or not", () => {
    const tag = "thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b";
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "> Model: ollama_chat/qwen3 with whole edit format  ",
        "",
        "#### hi  ",
        "",
        `<${tag}>`,
        "",
        "Let me think.",
        "",
        `</${tag}>`,
        "",
        "Hello!",
        "",
        "> Tokens: 1.2M sent, 3 received.  ",
      ),
    ).threads[0]!;
    const reply = thread.turns.find((t) => t.role === "assistant")!;
    expect(reply.parts).toEqual([
      { type: "thinking", text: "Let me think." },
      { type: "text", text: "Hello!" },
    ]);
    expect(reply).toMatchObject({
      content: "Hello!",
      modelProvider: "ollama_chat",
      modelName: "qwen3",
      usage: { inputTokens: 1_200_000, outputTokens: 3 },
      metadata: { reasoningTag: tag },
    });
    expect(splitReasoning("<think>half a thought")).toEqual({ thinking: "half a thought", answer: "", tag: "think" });
    expect(splitReasoning("<b>bold</b> text")).toEqual({ thinking: null, answer: "<b>bold</b> text", tag: null });
    expect(splitReasoning("Answer first <think>x</think>")).toMatchObject({ thinking: null });
  });

  it("marks interrupts, and a run that ended on one", () => {
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "#### go  ",
        "",
        "Partial answ",
        "",
        ">  ",
        ">  ",
        "> ^C again to exit  ",
        ">  ",
        ">  ",
        "> ^C KeyboardInterrupt  ",
      ),
    ).threads[0]!;
    expect(roles(thread)).toBe("user:3 assistant:5 system:7");
    expect(thread.turns[1]!.usage).toBeUndefined();
    expect(thread.turns[2]!.metadata).toEqual({ aiderStatus: "status", interrupted: true });
    expect(thread.metadata).toMatchObject({ endedBy: "KeyboardInterrupt" });
  });

  it("reads cache figures with the cost on the next line; a Tokens line without a reply makes an empty assistant turn", () => {
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "> Main model: anthropic/claude-sonnet-4-20250514 with diff edit format, prompt cache, infinite output  ",
        "",
        "#### go  ",
        "> Tokens: 12k sent, 1.5k cache write, 8.2k cache hit, 300 received.",
        "Cost: $0.01 message, $0.05 session.  ",
        "> Retrying in 0.2 seconds...  ",
      ),
    ).threads[0]!;
    expect(roles(thread)).toBe("system:3 user:5 assistant:6 system:8");
    expect(thread.turns[2]).toMatchObject({
      content: "",
      modelProvider: "anthropic",
      modelName: "claude-sonnet-4-20250514",
      usage: { inputTokens: 2300, cacheWriteTokens: 1500, cacheReadTokens: 8200, outputTokens: 300, reportedCostUsd: 0.01 },
      metadata: {
        emptyReply: true,
        usageRounded: true,
        usageLine: "> Tokens: 12k sent, 1.5k cache write, 8.2k cache hit, 300 received.\nCost: $0.01 message, $0.05 session.  ",
        sessionCostUsd: 0.05,
      },
    });
    expect(thread.metadata).toMatchObject({
      model: "anthropic/claude-sonnet-4-20250514",
      modelOptions: ["prompt cache", "infinite output"],
    });
  });

  it("follows a model switch within a run", () => {
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        ...BANNER,
        "",
        "#### /model o3  ",
        "> Aider v0.86.1  ",
        "> Main model: o3 with diff edit format  ",
        "",
        "#### hi  ",
        "",
        "Hi.",
        "",
        "> Tokens: 10 sent, 2 received.  ",
      ),
    ).threads[0]!;
    expect(thread.turns.find((t) => t.role === "assistant")!.modelName).toBe("o3");
    expect(thread.metadata).toMatchObject({ model: "gpt-4o" });
  });

  it("keeps a reply's h4 headings and blockquotes in the reply; a multi-line status message stays one", () => {
    const thread = parse(
      history(
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "#### explain  ",
        "",
        "#### Step 1",
        "> a quoted line",
        "more text",
        "",
        "> Tokens: 100 sent, 20 received.  ",
        "> mkdir -p out     ",
        "touch out/a.txt  ",
        "> Run shell commands? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
        "> # 1 SEARCH/REPLACE block failed to match!",
        "",
        "## SearchReplaceNoExactMatch",
        "Just reply with fixed versions.  ",
      ),
    ).threads[0]!;
    expect(roles(thread)).toBe("user:3 assistant:5 system:10");
    expect(thread.turns[1]!.content).toBe("#### Step 1\n> a quoted line\nmore text");
    expect(thread.turns[2]!.content.split("\n")).toHaveLength(7);
    expect(thread.turns[2]!.metadata).toMatchObject({ answers: [{ line: 12, question: "Run shell commands?", answer: "y" }] });
  });

  it("reads a file whose trailing spaces were stripped, and CRLF lines", () => {
    const stripped = ONE_RUN.split("\n")
      .map((l) => l.trimEnd())
      .join("\n");
    const expected = parse(ONE_RUN).threads[0]!.turns.map((t) => [t.role, t.key, t.usage ?? null]);
    expect(parse(stripped).threads[0]!.turns.map((t) => [t.role, t.key, t.usage ?? null])).toEqual(expected);
    const crlf = parse(ONE_RUN.replace(/\n/g, "\r\n"));
    expect(crlf.threads[0]!.turns).toEqual(parse(ONE_RUN).threads[0]!.turns);
  });

  it("reports lines before the first run as skipped; a run without prompts is a thread of its start-up turn", () => {
    const parsed = parse(
      history(
        "stray text",
        "",
        "# aider chat started at 2025-01-01 00:00:00",
        "",
        "> Newer aider version v0.85.2 is available.  ",
        "> Re-run aider to use new version.  ",
      ),
    );
    expect(parsed.skipped).toEqual([{ line: 1, reason: '1 line(s) before the first "# aider chat started at" belong to no run' }]);
    expect(parsed.threads[0]).toMatchObject({ title: "Aider run of 2025-01-01 00:00:00", turns: [{ role: "system", key: "5" }] });
  });

  it("is detected by name or first line, never for other Markdown; forced on a wrong file, it fails naming why", async () => {
    expect(looksLikeAiderHistory("# My project\n\nSome notes.\n", "README.md")).toBe(false);
    expect(looksLikeAiderHistory("\n# aider chat started at 2025-01-01 00:00:00\n", "chat.md")).toBe(true);
    expect(looksLikeAiderHistory("", "repo/.aider.chat.history.md")).toBe(true);
    expect(detectFormat("chat.md", ONE_RUN).format).toBe("aider");
    expect(() => detectFormat("README.md", "# My project\n\nSome notes.\n")).toThrow(ImportFormatError);
    const forced = detectFormat("README.md", "# My project\n\nSome notes.\n", "aider");
    await expect(parseDetected("README.md", forced)).rejects.toThrow(
      'README.md: not an Aider chat history: no "# aider chat started at" line',
    );
    expect(() => parse("#### hi  \n", "x/.aider.chat.history.md")).toThrow(ImportFormatError);
  });

  it("is found by folder walks and keys by the name it is given", () => {
    expect(isTranscriptPath("/home/me/repo/.aider.chat.history.md")).toBe(true);
    expect(isTranscriptPath("/home/me/repo/notes.md")).toBe(false);
    expect(isTranscriptPath("/home/me/repo/.aider.input.history")).toBe(false);
    expect(parse(ONE_RUN, ".aider.chat.history.md").threads[0]!.project).toBeNull();
  });
});

describe("Aider's figures", () => {
  it("reads counts as format_tokens writes them", () => {
    expect([readCount("104"), readCount("2.4k"), readCount("12k"), readCount("1.5M"), readCount("1,2k"), readCount("k")]).toEqual([
      104,
      2400,
      12000,
      1_500_000,
      null,
      null,
    ]);
  });

  it("reads a Tokens line, or nothing for a line that only looks like one", () => {
    expect(readTokensReport("Tokens: 3.2k sent, 21 received. Cost: $0.0082 message, $0.0082 session.")).toEqual({
      usage: { inputTokens: 3200, outputTokens: 21, reportedCostUsd: 0.0082 },
      sentTokens: 3200,
      sessionCostUsd: 0.0082,
    });
    expect(readTokensReport("Tokens: 3.2k sent, 21 received.")).toEqual({
      usage: { inputTokens: 3200, outputTokens: 21 },
      sentTokens: 3200,
      sessionCostUsd: null,
    });
    expect(readTokensReport("Tokens: lots sent, 21 received.")).toBeNull();
    expect(readTokensReport("Tokens: 3.2k sent.")).toBeNull();
    expect(readTokensReport("Tokens: 3.2k sent, 1 received. Cost: free")).toBeNull();
  });
});
