/**
 * The mapping on small invented sessions, for what the real samples lack: branches (and branches
 * of branches), branch summaries, tree compactions, labels, images, `!` commands, extension
 * entries, broken lines, and the v1 and parentSession ways of branching into a new file.
 */
import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { detectFormat, numberedLines } from "../index";
import { ImportFormatError, type ImportedThread } from "../types";
import { unifiedDiffOf } from "./diff";
import { looksLikePiSession, parsePiSession, sessionIdFromPath } from "./index";

const SESSION = "0b1e0000-0000-4000-8000-000000000001";
const header = (extra: object = {}) =>
  JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: "2026-01-01T10:00:00.000Z", cwd: "/w", ...extra });
let clock = 0;
/** A v3 entry line; times rise one second per entry. */
function entry(type: string, id: string, parentId: string | null, fields: object = {}): string {
  clock += 1000;
  return JSON.stringify({
    type,
    id,
    parentId,
    timestamp: new Date(Date.parse("2026-01-01T10:00:00.000Z") + clock).toISOString(),
    ...fields,
  });
}
const user = (id: string, parentId: string | null, text: string) =>
  entry("message", id, parentId, { message: { role: "user", content: text, timestamp: 0 } });
const usage = (input: number, output: number, cost: number) => ({
  input,
  output,
  cacheRead: 100,
  cacheWrite: 10,
  totalTokens: input + output + 110,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
});
const assistant = (id: string, parentId: string | null, content: object[], extra: object = {}) =>
  entry("message", id, parentId, {
    message: {
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-opus-4-5",
      usage: usage(3, 40, 0.01),
      stopReason: "stop",
      timestamp: 0,
      ...extra,
    },
  });
const toolResult = (id: string, parentId: string, callId: string, text: string, extra: object = {}) =>
  entry("message", id, parentId, {
    message: {
      role: "toolResult",
      toolCallId: callId,
      toolName: "bash",
      content: [{ type: "text", text }],
      isError: false,
      timestamp: 0,
      ...extra,
    },
  });

function parse(lines: string[], name = `/s/--w--/2026-01-01T10-00-00-000Z_${SESSION}.jsonl`) {
  return parsePiSession(numberedLines(`${lines.join("\n")}\n`), { name });
}
const keys = (thread: ImportedThread | undefined) => thread!.turns.map((t) => t.key);
const partsOf = (thread: ImportedThread, type: TurnPart["type"]) =>
  thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === type));

describe("detection", () => {
  it("knows a v2/v3 header and a v1 header by content, and nothing else", () => {
    expect(looksLikePiSession(JSON.parse(header()), "x.jsonl")).toBe(true);
    expect(
      looksLikePiSession({ type: "session", id: "a", timestamp: "t", cwd: "/w", provider: "anthropic", modelId: "m" }, "x.jsonl"),
    ).toBe(true);
    expect(looksLikePiSession({ type: "session", id: "a" }, "x.jsonl")).toBe(false); // no version, nothing of a v1 header
    expect(looksLikePiSession({ type: "session.start", id: "a", version: 1 }, "events.jsonl")).toBe(false); // Copilot
    expect(looksLikePiSession({ type: "session_meta", payload: {} }, "rollout.jsonl")).toBe(false); // Codex
    expect(detectFormat("any-name.jsonl", `${header()}\n${user("u1", null, "hi")}\n`).format).toBe("pi");
  });

  it("refuses a file that does not start with a header, naming the line", () => {
    expect(() => parse([user("u1", null, "hi")])).toThrow(ImportFormatError);
    expect(() => parse([user("u1", null, "hi")])).toThrow(/line 1: not a Pi session header/);
    expect(() => parse(["{not json", header()])).toThrow(/line 1: not valid JSON/);
    expect(() => parsePiSession(numberedLines("\n\n"), { name: "empty.jsonl" })).toThrow(/empty/);
  });
});

describe("branches", () => {
  // u1 - a1 - u2 - a2                  (abandoned: the first answer to u2)
  //             \- bs - u3 - a3 - u4 - a4   (active: a branch summary, then a new prompt; u4/a4 last in the file)
  //                        \- u5 - a5       (abandoned, older than u4: a branch of the active branch)
  //   a1 \- m1 (model_change) - u6 - a6     (abandoned, from a1 after a model switch)
  const lines = [
    header(),
    user("u1", null, "first prompt"),
    assistant("a1", "u1", [{ type: "text", text: "one" }]),
    user("u2", "a1", "second prompt"),
    assistant("a2", "u2", [{ type: "text", text: "two" }]),
    entry("model_change", "m1", "a1", { provider: "openai", modelId: "gpt-5" }),
    user("u6", "m1", "ask gpt"),
    assistant("a6", "u6", [{ type: "text", text: "six" }], { provider: "openai", model: "gpt-5" }),
    entry("branch_summary", "bs", "u2", { fromId: "a2", summary: "Tried answer two; dropped it." }),
    user("u3", "bs", "third prompt"),
    assistant("a3", "u3", [{ type: "text", text: "three" }]),
    user("u5", "a3", "fifth prompt"),
    assistant("a5", "u5", [{ type: "text", text: "five" }]),
    user("u4", "a3", "fourth prompt"),
    assistant("a4", "u4", [{ type: "text", text: "four" }]),
  ];
  const result = parse(lines);
  const [main, ...forks] = result.threads;

  it("makes the path from the last entry the main thread", () => {
    expect(main!.key).toBe(SESSION);
    expect(keys(main)).toEqual(["u1", "a1", "u2", "bs", "u3", "a3", "u4", "a4"]);
    expect(main!.title).toBe("first prompt");
    expect(result.skipped).toEqual([]);
  });

  it("makes each abandoned branch a fork holding only its own turns, at the last turn it shares", () => {
    expect(forks.map((f) => [f.key, f.parentKey, f.relation, keys(f)])).toEqual([
      // Leaves in file order: a2 (line 5), a6 (line 8), a5 (line 13).
      [`${SESSION}:fork:a2`, SESSION, { kind: "fork", atTurnKey: "u2" }, ["a2"]],
      // The model_change m1 is not a turn: the branch point is a1, the last turn before it.
      [`${SESSION}:fork:m1`, SESSION, { kind: "fork", atTurnKey: "a1" }, ["u6", "a6"]],
      [`${SESSION}:fork:u5`, SESSION, { kind: "fork", atTurnKey: "a3" }, ["u5", "a5"]],
    ]);
    expect(forks[2]!.title).toBe("first prompt — branch: fifth prompt");
    expect(forks[1]!.metadata).toMatchObject({
      forkedAt: "a1",
      leafId: "a6",
      modelChanges: [{ key: "m1", provider: "openai", modelId: "gpt-5" }],
    });
  });

  it("puts the branch summary as a system turn at the start of the branch it leads", () => {
    const summary = main!.turns.find((t) => t.key === "bs")!;
    expect(summary).toMatchObject({
      role: "system",
      content: "Tried answer two; dropped it.",
      metadata: { branchSummary: true, fromId: "a2" },
    });
  });

  it("counts each reply once: copies of shared turns never appear in forks", () => {
    const all = result.threads.flatMap((t) => t.turns.filter((turn) => turn.usage).map((turn) => turn.key));
    expect(all.sort()).toEqual(["a1", "a2", "a3", "a4", "a5", "a6"]);
  });

  it("nests a branch that leaves a fork under that fork", () => {
    // a branch from u6, inside the m1 fork (whose leaf a6 comes first in the file)
    const nested = parse([...lines.slice(0, 8), user("u7", "u6", "again"), ...lines.slice(8)]);
    const fork = nested.threads.find((t) => t.key === `${SESSION}:fork:u7`)!;
    expect(fork.parentKey).toBe(`${SESSION}:fork:m1`);
    expect(fork.relation).toEqual({ kind: "fork", atTurnKey: "u6" });
    // Parents come before their forks.
    const order = nested.threads.map((t) => t.key);
    expect(order.indexOf(`${SESSION}:fork:m1`)).toBeLessThan(order.indexOf(`${SESSION}:fork:u7`));
  });

  it("treats a second root (pi's resetLeaf: re-editing the first prompt) as a fork at no shared turn", () => {
    const reset = parse([
      header(),
      user("u1", null, "first"),
      assistant("a1", "u1", [{ type: "text", text: "x" }]),
      user("r1", null, "first, edited"),
    ]);
    expect(keys(reset.threads[0])).toEqual(["r1"]);
    expect(reset.threads[1]).toMatchObject({ key: `${SESSION}:fork:u1`, parentKey: SESSION, relation: { kind: "fork", atTurnKey: null } });
  });
});

describe("compaction on the tree (v3)", () => {
  const result = parse([
    header(),
    user("u1", null, "list files"),
    assistant("a1", "u1", [{ type: "toolCall", id: "toolu_1", name: "bash", arguments: { command: "ls" } }], { stopReason: "toolUse" }),
    toolResult("t1", "a1", "toolu_1", "a.txt"),
    entry("compaction", "c1", "t1", {
      summary: "User asked to list files.",
      firstKeptEntryId: "u1",
      tokensBefore: 150000,
      details: { readFiles: [], modifiedFiles: ["a.txt"] },
    }),
    user("u2", "c1", "go on"),
  ]);
  const [main] = result.threads;

  it("is a compaction marker with the summary, tokensBefore and the first kept entry", () => {
    const marker = main!.turns.find((t) => t.key === "c1")!;
    expect(marker).toMatchObject({
      role: "system",
      content: "User asked to list files.",
      compaction: { trigger: null, tokensBefore: 150000, tokensAfter: null },
    });
    expect(marker.metadata).toEqual({ firstKeptEntryId: "u1", details: { readFiles: [], modifiedFiles: ["a.txt"] } });
    expect(keys(main)).toEqual(["u1", "a1", "t1", "c1", "u2"]);
  });

  it("pairs the tool call with its result turn", () => {
    expect(partsOf(main!, "tool_call")).toEqual([{ type: "tool_call", id: "toolu_1", name: "bash", arguments: { command: "ls" } }]);
    expect(partsOf(main!, "tool_result")).toEqual([
      { type: "tool_result", toolCallId: "toolu_1", content: "a.txt", isError: false, toolName: "bash" },
    ]);
    expect(main!.turns[2]).toMatchObject({ role: "tool", toolName: "bash", content: "a.txt" });
  });

  it("keeps the usage as reported: input without the cache, pi's cost", () => {
    expect(main!.turns[1]!.usage).toEqual({
      inputTokens: 3,
      outputTokens: 40,
      cacheReadTokens: 100,
      cacheWriteTokens: 10,
      reportedCostUsd: 0.01,
    });
  });
});

describe("entries", () => {
  const result = parse([
    header(),
    entry("session_info", "s1", null, { name: "first name" }),
    entry("thinking_level_change", "k1", "s1", { thinkingLevel: "high" }),
    entry("message", "u1", "k1", {
      message: {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
        ],
        timestamp: 0,
      },
    }),
    assistant("a1", "u1", [
      { type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
      { type: "text", text: "ok" },
    ]),
    entry("message", "b1", "a1", {
      message: { role: "bashExecution", command: "false", output: "boom", exitCode: 1, cancelled: false, truncated: false, timestamp: 0 },
    }),
    entry("custom", "x1", "b1", { customType: "my-ext", data: { count: 1 } }),
    entry("custom_message", "x2", "x1", { customType: "my-ext", content: "injected", display: true }),
    entry("message", "h1", "x2", { message: { role: "custom", customType: "hook", content: "from a hook", display: false, timestamp: 0 } }),
    assistant("a2", "h1", [], { stopReason: "error", errorMessage: "overloaded", usage: usage(0, 0, 0) }),
    entry("label", "l1", "a2", { targetId: "u1", label: "start" }),
    entry("label", "l2", "l1", { targetId: "a1", label: "gone" }),
    entry("label", "l3", "l2", { targetId: "a1" }),
    entry("mystery", "z1", "l3", {}),
    entry("message", "z2", "z1", { message: { role: "narrator", content: "?" } }),
    entry("session_info", "s2", "z2", { name: "final name" }),
    "{broken",
    user("u9", "s2", "last"),
    '{"type":"message","id":"cut',
  ]);
  const [main] = result.threads;
  const turn = (key: string) => main!.turns.find((t) => t.key === key)!;

  it("titles the thread by the last session name and keeps it in metadata", () => {
    expect(main!.title).toBe("final name");
    expect(main!.metadata).toMatchObject({
      name: "final name",
      version: 3,
      cwd: "/w",
      thinkingLevelChanges: [{ key: "k1", thinkingLevel: "high" }],
    });
  });

  it("keeps images as image parts without their data", () => {
    expect(turn("u1")).toMatchObject({
      role: "user",
      content: "see\n\n[image]",
      parts: [
        { type: "text", text: "see" },
        { type: "image", mediaType: "image/png", alt: "image pasted into the session" },
      ],
    });
    expect(JSON.stringify(turn("u1"))).not.toContain("aGVsbG8=");
  });

  it("folds thinking into a thinking part and notes the thinking level", () => {
    expect(turn("a1").parts).toEqual([
      { type: "thinking", text: "hmm" },
      { type: "text", text: "ok" },
    ]);
    expect(turn("a1").metadata?.thinkingLevel).toBe("high");
  });

  it("makes a `!` command a user turn with its own paired call and result", () => {
    expect(turn("b1")).toMatchObject({
      role: "user",
      content: "Ran `false`\n```\nboom\n```\n\nCommand exited with code 1",
      parts: [
        { type: "tool_call", id: "b1:bash", name: "bash", arguments: { command: "false" } },
        { type: "tool_result", toolCallId: "b1:bash", content: "boom", isError: true },
      ],
      metadata: { bashExecution: true, exitCode: 1 },
    });
  });

  it("makes extension messages sent to the model user turns, and skips extension state with a reason", () => {
    expect(turn("x2")).toMatchObject({
      role: "user",
      content: "injected",
      metadata: { customMessage: true, customType: "my-ext", display: true },
    });
    expect(turn("h1")).toMatchObject({
      role: "user",
      content: "from a hook",
      metadata: { customMessage: true, customType: "hook", display: false },
    });
    expect(result.skipped).toContainEqual({
      line: 7,
      reason: 'extension state (custom entry "my-ext"): pi never shows it to the model or the user',
    });
  });

  it("keeps a failed reply, marked, with its error", () => {
    expect(turn("a2")).toMatchObject({
      role: "assistant",
      content: "",
      metadata: { stopReason: "error", error: true, errorMessage: "overloaded" },
    });
  });

  it("puts labels on their target turns (a cleared label is gone)", () => {
    expect(turn("u1").metadata).toEqual({ label: "start" });
    expect(turn("a1").metadata?.label).toBeUndefined();
  });

  it("reports unknown entries, broken lines and a cut last line as skipped, with their lines", () => {
    expect(result.skipped).toEqual([
      { line: 7, reason: 'extension state (custom entry "my-ext"): pi never shows it to the model or the user' },
      { line: 14, reason: 'type "mystery": not an entry type Pi writes' },
      { line: 15, reason: 'message.role "narrator": not a role Pi writes' },
      { line: 17, reason: "not valid JSON" },
      { line: 19, reason: "truncated last line (the session may still be running)" },
    ]);
    // The tree goes on through the skipped entries: u9 is on the active path.
    expect(keys(main).at(-1)).toBe("u9");
  });
});

describe("sessions branched into a new file", () => {
  it("v1: keys are line numbers, the copied history marks the fork point, firstKeptEntryIndex names its entry", () => {
    const v1Header = JSON.stringify({
      type: "session",
      id: "child-1",
      timestamp: "2025-12-09T00:00:00.000Z",
      cwd: "/w",
      provider: "anthropic",
      modelId: "claude-opus-4-5",
      thinkingLevel: "off",
      branchedFrom: "/h/.pi/agent/sessions/--w--/2025-12-08T00-00-00-000Z_parent-1.jsonl",
    });
    const old = (t: string) => `2025-12-08T0${t}:00:00.000Z`;
    const result = parse(
      [
        v1Header,
        JSON.stringify({
          type: "message",
          timestamp: old("1"),
          message: { role: "user", content: [{ type: "text", text: "copied prompt" }], timestamp: 0 },
        }),
        JSON.stringify({
          type: "message",
          timestamp: old("2"),
          message: {
            role: "assistant",
            content: [{ type: "text", text: "copied reply" }],
            provider: "anthropic",
            model: "claude-opus-4-5",
            usage: usage(1, 2, 0.5),
            stopReason: "stop",
            timestamp: 0,
          },
        }),
        JSON.stringify({
          type: "compaction",
          timestamp: "2025-12-09T01:00:00.000Z",
          summary: "s",
          firstKeptEntryIndex: 2,
          tokensBefore: 9,
        }),
        JSON.stringify({ type: "model_change", timestamp: "2025-12-09T01:00:01.000Z", provider: "openai", modelId: "gpt-5" }),
        JSON.stringify({
          type: "message",
          timestamp: "2025-12-09T01:00:02.000Z",
          message: { role: "user", content: "new prompt", timestamp: 0 },
        }),
        JSON.stringify({
          type: "message",
          timestamp: "2025-12-09T01:00:03.000Z",
          message: {
            role: "assistant",
            content: [{ type: "text", text: "new" }],
            usage: usage(1, 2, 0.5),
            stopReason: "stop",
            timestamp: 0,
          },
        }),
      ],
      "2025-12-09T00-00-00-000Z_child-1.jsonl",
    );
    const [main] = result.threads;
    expect(keys(main)).toEqual(["2", "3", "4", "6", "7"]);
    expect(main!.parentKey).toBe("parent-1");
    expect(main!.relation).toEqual({ kind: "fork", atTurnKey: "3" });
    expect(main!.turns.map((t) => t.metadata?.copiedFromParent ?? false)).toEqual([true, true, false, false, false]);
    expect(main!.turns[2]!.metadata).toMatchObject({ firstKeptEntryIndex: 2, firstKeptEntryId: "3" });
    // The reply without its own provider/model takes the model_change before it.
    expect(main!.turns[4]).toMatchObject({ modelProvider: "openai", modelName: "gpt-5" });
  });

  it("v3 parentSession: the copied entries keep their ids, so the fork point is the parent's own key", () => {
    const result = parse([
      header({
        timestamp: "2026-01-02T00:00:00.000Z",
        parentSession: "/h/.pi/agent/sessions/--w--/2026-01-01T09-00-00-000Z_parent-3.jsonl",
      }),
      user("p1", null, "from the parent"),
      assistant("p2", "p1", [{ type: "text", text: "parent reply" }]),
      entry("message", "n1", "p2", { timestamp: "2026-01-02T00:00:05.000Z", message: { role: "user", content: "new here", timestamp: 0 } }),
    ]);
    expect(result.threads[0]).toMatchObject({ parentKey: "parent-3", relation: { kind: "fork", atTurnKey: "p2" } });
  });

  it("reads the session id from a session file's name", () => {
    expect(sessionIdFromPath("/a/--w--/2025-12-09T00-52-54-397Z_d97339c6-6c10-4827-846b-9ff1d9c3dc37.jsonl")).toBe(
      "d97339c6-6c10-4827-846b-9ff1d9c3dc37",
    );
    expect(sessionIdFromPath("C:\\s\\x_custom-id.jsonl")).toBe("custom-id");
  });
});

describe("edit diffs", () => {
  it("turns pi's numbered diff into unified hunks, offsets carried across hunks", () => {
    const pi = [
      "     ...",
      "   3 keep",
      "-  4 old",
      "+  4 new",
      "+  5 added",
      "   5 tail",
      "     ...",
      "  20 ctx",
      "- 21 gone",
      "  22 end",
    ].join("\n");
    expect(unifiedDiffOf(pi, "/src/a.ts")).toBe(
      [
        "--- a/src/a.ts",
        "+++ b/src/a.ts",
        "@@ -3,3 +3,4 @@",
        " keep",
        "-old",
        "+new",
        "+added",
        " tail",
        "@@ -20,3 +21,2 @@",
        " ctx",
        "-gone",
        " end",
      ].join("\n"),
    );
    expect(unifiedDiffOf("not a diff", null)).toBeNull();
  });
});
