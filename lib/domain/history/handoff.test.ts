import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codePointPrefix, handoffText, orchestratorHandoff, pythonStrip, truncateMessage, type HandoffInput } from "./handoff";

const turn = (role: string, content: string, turnIndex = 0): HandoffInput => ({ role, content, threadId: "t", turnIndex });

describe("truncation at the edges", () => {
  it("keeps a user message of 150 characters and cuts one of 151 to 150 plus the marker", () => {
    expect(truncateMessage("user", "u".repeat(150))).toEqual({ role: "user", content: "u".repeat(150), truncated: false });
    expect(truncateMessage("user", "u".repeat(151))).toEqual({
      role: "user",
      content: `${"u".repeat(150)}... [truncated]`,
      truncated: true,
    });
  });

  it("keeps an assistant message of 8,192 characters and cuts one of 8,193", () => {
    expect(truncateMessage("assistant", "a".repeat(8192)).truncated).toBe(false);
    expect(truncateMessage("assistant", "a".repeat(8193))).toEqual({
      role: "assistant",
      content: `${"a".repeat(8192)}... [truncated at 8192 chars]`,
      truncated: true,
    });
  });

  it("never cuts a system message, however long", () => {
    const long = "s".repeat(100_000);
    expect(truncateMessage("system", long)).toEqual({ role: "system", content: long, truncated: false });
  });

  it("counts characters as code points, as Python does, and never splits a surrogate pair", () => {
    // 150 emoji are 300 UTF-16 units but 150 characters: kept whole.
    expect(truncateMessage("user", "😀".repeat(150)).truncated).toBe(false);
    // An astral character right at the cut: the 150th character is kept whole, the 151st goes.
    const cut = truncateMessage("user", `${"x".repeat(149)}😀𝄞tail`);
    expect(cut.content).toBe(`${"x".repeat(149)}😀... [truncated]`);
    expect(cut.content.isWellFormed()).toBe(true);
    const assistant = truncateMessage("assistant", "𝄞".repeat(8193));
    expect(assistant.content).toBe(`${"𝄞".repeat(8192)}... [truncated at 8192 chars]`);
    // Combining marks are characters of their own in Python's count.
    expect(truncateMessage("user", "e\u0301".repeat(76)).content).toBe(`${"e\u0301".repeat(75)}... [truncated]`);
  });

  it("reads a prefix without walking the rest of a long text", () => {
    expect(codePointPrefix("abc", 5)).toEqual({ prefix: "abc", cut: false });
    expect(codePointPrefix("abc", 3)).toEqual({ prefix: "abc", cut: false });
    expect(codePointPrefix("abcd", 3)).toEqual({ prefix: "abc", cut: true });
    expect(codePointPrefix("", 0)).toEqual({ prefix: "", cut: false });
  });
});

describe("validation", () => {
  it("skips tool turns and empty contents with the seed's warnings, keeps the rest stripped and in order", () => {
    const handoff = orchestratorHandoff([
      turn("user", "  hi  ", 0),
      turn("tool", "result", 1),
      turn("assistant", " \n\t ", 2),
      turn("system", "\nbe brief\n", 3),
      turn("assistant", "ok", 4),
    ]);
    expect(handoff.messages).toEqual([
      { role: "user", content: "hi", truncated: false },
      { role: "system", content: "be brief", truncated: false },
      { role: "assistant", content: "ok", truncated: false },
    ]);
    expect(handoff.skipped).toEqual([
      {
        index: 1,
        reason: "conversation_history[1] has invalid role 'tool', skipping",
        cause: { kind: "role", role: "tool" },
        threadId: "t",
        turnIndex: 1,
      },
      {
        index: 2,
        reason: "conversation_history[2] has empty/invalid content, skipping",
        cause: { kind: "empty" },
        threadId: "t",
        turnIndex: 2,
      },
    ]);
    expect(handoff.conversationMessagesCount).toBe(3);
    expect(handoff.cut).toEqual({ messages: 0, characters: 0 });
    expect(handoff.origins.map((o) => o.turnIndex)).toEqual([0, 3, 4]);
  });

  it("strips Python's whitespace, not JavaScript's: a byte-order mark stays, a file separator goes", () => {
    expect(pythonStrip("\u001c\u0085 text \u00a0\u3000")).toBe("text");
    expect(pythonStrip("\ufefftext")).toBe("\ufefftext");
    // Stripped first, then counted: 150 characters after stripping are not cut.
    expect(orchestratorHandoff([turn("user", `   ${"u".repeat(150)}   `)]).messages[0]!.truncated).toBe(false);
  });

  it("has no section at all without messages", () => {
    expect(orchestratorHandoff([turn("tool", "x")])).toMatchObject({ text: "", messages: [], conversationMessagesCount: 0 });
    expect(handoffText([])).toBe("");
  });
});

describe("the layout", () => {
  it("is the seed's section for its own example, byte for byte", () => {
    // The seed's "Expected Data Structure", through format_task_enrichment_prompt's f-string.
    const handoff = orchestratorHandoff([
      turn("user", "Can you help me fix the authentication bug?"),
      turn("assistant", "I'll investigate the auth system..."),
      turn("user", "It's specifically in the JWT validation"),
    ]);
    expect(handoff.text).toBe(
      "\n💬 CONVERSATION HISTORY (Context leading to this task):\n" +
        "1. 👤 USER:\n   Can you help me fix the authentication bug?\n\n" +
        "2. 🤖 ASSISTANT:\n   I'll investigate the auth system...\n\n" +
        "3. 👤 USER:\n   It's specifically in the JWT validation\n\n",
    );
  });

  it("counts what truncation cut, in characters", () => {
    const handoff = orchestratorHandoff([
      turn("user", "😀".repeat(160)),
      turn("assistant", "a".repeat(8200)),
      turn("system", "s".repeat(9000)),
    ]);
    expect(handoff.cut).toEqual({ messages: 2, characters: 10 + 8 });
  });

  it("notes a truncated message after its role, gives system the assistant's emoji, and indents only a content's first line", () => {
    const handoff = orchestratorHandoff([turn("system", "rule one\nrule two"), turn("user", "q".repeat(151))]);
    expect(handoff.text).toBe(
      "\n💬 CONVERSATION HISTORY (Context leading to this task):\n" +
        "1. 🤖 SYSTEM:\n   rule one\nrule two\n\n" +
        `2. 👤 USER [TRUNCATED]:\n   ${"q".repeat(150)}... [truncated]\n\n`,
    );
  });
});

/** Python, to run the seed's own code as the reference (Debian ships python3; the check is skipped where there is none). */
const PYTHON = ["/usr/bin/python3", "/usr/local/bin/python3"].find((p) => existsSync(p));

describe.skipIf(!PYTHON)("against the seed's own Python", () => {
  it("gives the same messages, warnings and text, byte for byte, for edge cases and random conversations", () => {
    const astral = ["😀", "𝄞", "👩‍💻", "e\u0301", "\u00a0", "\ufeff", "\u001c", "\u3000", "\r\n", "\t", " ", "é", "中"];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const text = (length: number) =>
      Array.from({ length }, () => (random(4) === 0 ? astral[random(astral.length)] : String.fromCharCode(97 + random(26)))).join("");
    const inputs: HandoffInput[] = [
      turn("user", "u".repeat(150)),
      turn("user", "u".repeat(151)),
      turn("user", `${"x".repeat(149)}😀𝄞`),
      turn("assistant", "a".repeat(8192)),
      turn("assistant", `${"a".repeat(8191)}😀😀`),
      turn("system", "s".repeat(9000)),
      turn("tool", "result"),
      turn("user", " \u3000\u0085 "),
      turn("assistant", "\ufeff"),
    ];
    for (let i = 0; i < 200; i++)
      inputs.push(turn(["user", "assistant", "system", "tool"][random(4)]!, text(random(3) === 0 ? 140 + random(20) : random(300))));
    for (let i = 0; i < 5; i++) inputs.push(turn("assistant", text(8180 + random(30))));
    const oracle = JSON.parse(
      execFileSync(PYTHON!, [path.join(process.cwd(), "lib/testing/handoff-oracle.py")], {
        input: JSON.stringify(inputs.map(({ role, content }) => ({ role, content }))),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as { text: string; messages: unknown[]; warnings: string[] };
    const handoff = orchestratorHandoff(inputs);
    expect(handoff.messages).toEqual(oracle.messages);
    expect(handoff.skipped.map((s) => s.reason)).toEqual(oracle.warnings);
    expect(Buffer.from(handoff.text, "utf8").equals(Buffer.from(oracle.text, "utf8"))).toBe(true);
    expect(handoff.messages.filter((m) => m.truncated).length).toBeGreaterThan(5);
  });
});
