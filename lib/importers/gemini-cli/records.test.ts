import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { looksLikeGeminiJsonl, looksLikeGeminiLegacy, parseGeminiJsonl, parseGeminiLegacy } from "./index";
import { ImportFormatError } from "../types";
import { JSONL_FILE, LEGACY_2025, LEGACY_2026, META, gemini, jsonl, numbered, onlyThread, user } from "./test-helpers";

describe("detection", () => {
  it("recognises the fixtures", () => {
    const firstLine: unknown = JSON.parse(readFileSync(JSONL_FILE, "utf8").split("\n")[0]!);
    expect(looksLikeGeminiJsonl(firstLine, JSONL_FILE)).toBe(true);
    expect(looksLikeGeminiLegacy(JSON.parse(readFileSync(LEGACY_2026, "utf8")), LEGACY_2026)).toBe(true);
    expect(looksLikeGeminiLegacy(JSON.parse(readFileSync(LEGACY_2025, "utf8")), LEGACY_2025)).toBe(true);
  });

  it("rejects other formats", () => {
    const claudeLine = { type: "user", sessionId: "x", uuid: "u", message: { role: "user", content: "hi" } };
    const codexLine = { timestamp: "t", type: "session_meta", payload: { id: "x" } };
    expect(looksLikeGeminiJsonl(claudeLine, "x.jsonl")).toBe(false);
    expect(looksLikeGeminiJsonl(codexLine, "rollout.jsonl")).toBe(false);
    expect(looksLikeGeminiJsonl("text", "x.jsonl")).toBe(false);
    expect(looksLikeGeminiLegacy([{ role: "user", content: "hi" }], "x.json")).toBe(false);
    expect(looksLikeGeminiLegacy({ sessionId: "x", messages: "no" }, "session-x.json")).toBe(false);
    // A JSONL metadata line is not a legacy document (no messages), and a legacy document is not JSONL.
    expect(looksLikeGeminiLegacy(META, "session-x.jsonl")).toBe(false);
    expect(looksLikeGeminiJsonl({ ...META, messages: [] }, "session-x.json")).toBe(false);
    expect(looksLikeGeminiLegacy({ sessionId: "x", messages: [] }, "session-2026-01-01T10-00-abcdefgh.json")).toBe(true);
  });
});

describe("JSONL replay", () => {
  it("lets the last record per id win while keeping the first-seen position", () => {
    const thread = onlyThread(
      parseGeminiJsonl(
        jsonl(META, user("m1", "first"), gemini("m2", { content: "draft" }), user("m1", "edited"), gemini("m2", { content: "final" })),
        { name: "s.jsonl" },
      ),
    );
    expect(thread.turns.map((t) => [t.key, t.content])).toEqual([
      ["m1", "edited"],
      ["m2", "final"],
    ]);
  });

  it("applies $set to the metadata: lastUpdated, summary (title), directories (project)", () => {
    const thread = onlyThread(
      parseGeminiJsonl(
        jsonl(
          META,
          user("m1", "hello there"),
          { $set: { lastUpdated: "2026-01-01T11:00:00.000Z" } },
          { $set: { summary: "  Fix   the\nbuild  ", directories: ["/home/me/app", "/home/me/lib"] } },
        ),
        { name: "s.jsonl" },
      ),
    );
    expect(thread.lastUpdatedAt).toBe("2026-01-01T11:00:00.000Z");
    expect(thread.title).toBe("Fix the build");
    expect(thread.project).toBe("/home/me/app");
    expect(thread.metadata).toEqual({ projectHash: "hash-1", kind: "main", directories: ["/home/me/app", "/home/me/lib"] });
  });

  it("replaces the history on $set.messages and applies later records on top", () => {
    const result = parseGeminiJsonl(
      jsonl(
        META,
        user("m1", "one"),
        gemini("m2", { content: "two" }),
        user("m3", "three"),
        { $set: { messages: [user("c1", "compressed summary"), user("m3", "three"), 7] } },
        gemini("m4", { content: "four" }),
      ),
      { name: "s.jsonl" },
    );
    const thread = onlyThread(result);
    expect(thread.turns.map((t) => t.key)).toEqual(["c1", "m3", "m4"]);
    expect(thread.metadata?.historyRewrites).toBe(1);
    expect(result.skipped).toEqual([{ line: 5, reason: "$set.messages[2]: not a JSON object" }]);
  });

  it("drops the $rewindTo message and everything after it (docs/formats.md §3)", () => {
    const thread = onlyThread(
      parseGeminiJsonl(
        jsonl(
          META,
          user("m1", "read README"),
          gemini("m2", { tokens: { input: 1200, output: 30, cached: 0, thoughts: 90, tool: 0, total: 1320 } }),
          gemini("m2", {
            toolCalls: [
              {
                id: "c1",
                name: "read_file",
                args: { file_path: "README.md" },
                status: "success",
                result: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "# hi" } } }],
              },
            ],
          }),
          { $set: { lastUpdated: "2026-01-01T10:00:04.000Z" } },
          { $rewindTo: "m2" },
        ),
        { name: "s.jsonl" },
      ),
    );
    expect(thread.turns.map((t) => t.key)).toEqual(["m1"]);
    expect(thread.metadata?.rewinds).toBe(1);
  });

  it("puts a message re-appended after a rewind at the end", () => {
    const thread = onlyThread(
      parseGeminiJsonl(
        jsonl(META, user("a", "a"), user("b", "b"), user("c", "c"), { $rewindTo: "b" }, user("d", "d"), user("b", "b again")),
        { name: "s.jsonl" },
      ),
    );
    expect(thread.turns.map((t) => [t.key, t.content])).toEqual([
      ["a", "a"],
      ["d", "d"],
      ["b", "b again"],
    ]);
  });

  it("keeps everything, with a warning, when $rewindTo names an unknown message", () => {
    const result = parseGeminiJsonl(jsonl(META, user("a", "a"), user("b", "b"), { $rewindTo: "zzz" }), { name: "s.jsonl" });
    expect(onlyThread(result).turns).toHaveLength(2);
    expect(result.warnings).toEqual(['line 4: $rewindTo names message "zzz", which is not in the history before it; nothing was dropped']);
  });
});

describe("message mapping", () => {
  const parse = (...records: unknown[]) => parseGeminiJsonl(jsonl(META, ...records), { name: "s.jsonl" });

  it("maps a gemini message to an assistant turn with thinking, text and tool calls, then a tool turn", () => {
    const thread = onlyThread(
      parse(
        user("u1", "list files"),
        gemini("g1", {
          content: "Listing.",
          thoughts: [{ subject: "Planning", description: "Use ls.", timestamp: "2026-01-01T10:00:01.500Z" }],
          tokens: { input: 1000, output: 40, cached: 600, thoughts: 25, tool: 7, total: 1072 },
          toolCalls: [
            {
              id: "c1",
              name: "run_shell_command",
              args: '{"command":"ls"}',
              status: "success",
              timestamp: "2026-01-01T10:00:03.000Z",
              result: [{ functionResponse: { id: "c1", name: "run_shell_command", response: { output: "a.txt" } } }],
            },
            {
              id: "c2",
              name: "read_file",
              args: "not json",
              status: "error",
              timestamp: "2026-01-01T10:00:04.000Z",
              result: [{ functionResponse: { id: "c2", name: "read_file", response: { error: "ENOENT" } } }],
            },
            {
              id: "c3",
              name: "write_file",
              args: {},
              status: "cancelled",
              result: [{ functionResponse: { id: "c3", name: "write_file", response: { error: "[Operation Cancelled]" } } }],
            },
            { id: "c4", name: "web_fetch", args: {}, status: "executing" },
          ],
        }),
      ),
    );
    const [, assistant, tool] = thread.turns;
    expect(thread.turns).toHaveLength(3);
    expect(assistant).toMatchObject({ key: "g1", role: "assistant", modelName: "gemini-2.5-pro", modelProvider: "google" });
    // input 1000 - cached 600 + tool-use prompt 7; output excludes thoughts.
    expect(assistant!.usage).toEqual({ inputTokens: 407, cacheReadTokens: 600, outputTokens: 40, reasoningTokens: 25 });
    expect(assistant!.parts?.[0]).toEqual({
      type: "thinking",
      text: "Planning\n\nUse ls.",
      subject: "Planning",
      timestamp: "2026-01-01T10:00:01.500Z",
    });
    expect(assistant!.parts?.filter((p) => p.type === "tool_call")).toEqual([
      { type: "tool_call", id: "c1", name: "run_shell_command", arguments: { command: "ls" } },
      { type: "tool_call", id: "c2", name: "read_file", arguments: "not json" },
      { type: "tool_call", id: "c3", name: "write_file", arguments: {} },
      { type: "tool_call", id: "c4", name: "web_fetch", arguments: {} },
    ]);
    expect(assistant!.content).toBe(
      'Listing.\n\n[run_shell_command] {"command":"ls"}\n\n[read_file] "not json"\n\n[write_file] {}\n\n[web_fetch] {}',
    );
    expect(assistant!.content).not.toContain("Use ls."); // thinking stays in parts
    expect(tool).toMatchObject({ key: "g1:results", role: "tool", timestamp: "2026-01-01T10:00:04.000Z" });
    // c4 is still executing: no result yet.
    expect(tool!.parts).toEqual([
      { type: "tool_result", toolCallId: "c1", content: "a.txt", isError: false, name: "run_shell_command", status: "success" },
      { type: "tool_result", toolCallId: "c2", content: "ENOENT", isError: true, name: "read_file", status: "error" },
      { type: "tool_result", toolCallId: "c3", content: "[Operation Cancelled]", isError: false, name: "write_file", status: "cancelled" },
    ]);
    expect(tool!.content).toBe("[run_shell_command] a.txt\n\n[read_file] ENOENT\n\n[write_file] [Operation Cancelled]");
  });

  it("falls back to resultDisplay when a finished call has no result parts", () => {
    const thread = onlyThread(
      parse(gemini("g1", { toolCalls: [{ id: "c1", name: "ls", args: {}, status: "success", resultDisplay: "Listed 3 files" }] })),
    );
    expect(thread.turns[1]!.parts).toEqual([
      { type: "tool_result", toolCallId: "c1", content: "Listed 3 files", isError: false, name: "ls", status: "success" },
    ]);
  });

  it("maps info, error and warning messages to system turns; ignores unknown types", () => {
    const thread = onlyThread(
      parse(
        { id: "i", timestamp: "2026-01-01T10:00:01.000Z", type: "info", content: "Model switched" },
        { id: "e", timestamp: "2026-01-01T10:00:02.000Z", type: "error", content: [{ text: "API error 429" }] },
        { id: "w", timestamp: "2026-01-01T10:00:03.000Z", type: "warning", content: "Low disk" },
        { id: "x", timestamp: "2026-01-01T10:00:04.000Z", type: "future_kind", content: "?" },
      ),
    );
    expect(thread.turns.map((t) => [t.role, t.content, t.metadata?.messageType])).toEqual([
      ["system", "Model switched", "info"],
      ["system", "API error 429", "error"],
      ["system", "Low disk", "warning"],
    ]);
    expect(thread.title).toBeNull(); // no user message, no summary
  });

  it("makes a user message of function responses a tool turn, and drops results already shown with their calls", () => {
    const call = {
      id: "c1",
      name: "ls",
      args: {},
      status: "success",
      result: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a" } } }],
    };
    const thread = onlyThread(
      parse(
        user("u1", "go"),
        gemini("g1", { toolCalls: [call], content: [{ functionCall: { id: "c1", name: "ls", args: {} } }] }),
        { id: "r1", type: "user", content: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a" } } }] },
        { id: "r2", type: "user", content: [{ functionResponse: { id: "c9", name: "grep", response: { output: "hit" } } }] },
      ),
    );
    // g1's content repeats its toolCalls' functionCall: one tool_call part, not two.
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["u1", "user"],
      ["g1", "assistant"],
      ["g1:results", "tool"],
      ["r2", "tool"],
    ]);
    expect(thread.turns[1]!.parts?.filter((p) => p.type === "tool_call")).toHaveLength(1);
    expect(thread.turns[3]!.parts).toEqual([{ type: "tool_result", toolCallId: "c9", content: "hit", isError: false, name: "grep" }]);
  });

  it("never embeds inline image data", () => {
    const data = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const thread = onlyThread(
      parse(
        {
          id: "u1",
          type: "user",
          content: [
            { text: "what is this?" },
            { inlineData: { mimeType: "image/png", data } },
            { inlineData: { mimeType: "application/pdf", data } },
          ],
        },
        gemini("g1", {
          toolCalls: [
            { id: "c1", name: "read_file", args: {}, status: "success", result: [{ inlineData: { mimeType: "image/jpeg", data } }] },
          ],
        }),
      ),
    );
    expect(JSON.stringify(thread)).not.toContain(data);
    expect(thread.turns[0]!.parts).toEqual([
      { type: "text", text: "what is this?" },
      { type: "image", mediaType: "image/png", alt: "image attached to the message" },
      { type: "text", text: "[attachment: application/pdf]" },
    ]);
    expect(thread.turns[0]!.content).toBe("what is this?\n[image]\n[attachment: application/pdf]");
    expect(thread.turns[2]!.parts?.[1]).toEqual({ type: "image", mediaType: "image/jpeg", alt: "image tool output" });
  });

  it("normalises timestamps to UTC and tolerates bad ones", () => {
    const thread = onlyThread(
      parse(
        { id: "u1", type: "user", timestamp: "2026-01-01T12:00:00+02:00", content: "hi" },
        { id: "u2", type: "user", timestamp: "yesterday", content: "yo" },
      ),
    );
    expect(thread.turns.map((t) => t.timestamp)).toEqual(["2026-01-01T10:00:00.000Z", null]);
  });

  it("cuts the title from a long first user message to 100 characters", () => {
    const thread = onlyThread(parse(user("u1", `  ${"word ".repeat(40)}\n\nend`)));
    // Collapsed to "word word … end", then cut at the last word that fits in 100 code points with
    // an ellipsis (the shared titleFromContent): 20 words and 19 spaces and "…" are 100.
    expect(thread.title).toBe(`${"word ".repeat(20).trim()}…`);
  });
});

describe("sub-agent chats", () => {
  const subagent = { ...META, sessionId: "child-1", kind: "subagent", directories: ["/work/app"] };
  const lines = () => jsonl(subagent, user("u1", "investigate"));

  it("takes the parent from the source field", () => {
    const thread = onlyThread(parseGeminiJsonl(lines(), { name: "child-1.jsonl", parentSessionId: "parent-9" }));
    expect(thread).toMatchObject({
      key: "child-1",
      parentKey: "parent-9",
      relation: { kind: "subagent", toolCallId: null },
      project: "/work/app",
    });
  });

  it("takes the parent from the chats/<parentSessionId>/<sessionId>.jsonl path", () => {
    const thread = onlyThread(parseGeminiJsonl(lines(), { name: "/home/u/.gemini/tmp/app/chats/parent-7/child-1.jsonl" }));
    expect(thread.parentKey).toBe("parent-7");
  });

  it("has no parent when neither gives one, and main sessions never get one", () => {
    expect(onlyThread(parseGeminiJsonl(lines(), { name: "child-1.jsonl" })).parentKey ?? null).toBeNull();
    const main = onlyThread(
      parseGeminiJsonl(jsonl(META, user("u1", "x")), { name: "/t/chats/parent-7/s.jsonl", parentSessionId: "parent-7" }),
    );
    expect(main.parentKey ?? null).toBeNull();
    expect(main.relation ?? null).toBeNull();
  });
});

describe("malformed JSONL", () => {
  it("skips a truncated last line and bad lines in the middle, with reasons", () => {
    const result = parseGeminiJsonl(
      jsonl(
        META,
        "{not json",
        user("u1", "hi"),
        "[1,2]",
        { $set: "nope" },
        { $rewindTo: 5 },
        { id: 42, type: "user", content: "x" },
        { type: "gemini", content: "no id" },
        { id: "u2", content: "no type" },
        { whatever: true },
        '{"id":"u3","type":"us',
      ),
      { name: "s.jsonl" },
    );
    expect(result.skipped).toEqual([
      { line: 2, reason: "not valid JSON" },
      { line: 4, reason: "not a JSON object" },
      { line: 5, reason: "$set: not an object" },
      { line: 6, reason: "$rewindTo: not a string message id" },
      { line: 7, reason: "id: empty or not a string" },
      { line: 8, reason: "gemini message without an id" },
      { line: 9, reason: "message u2: type missing or not a string" },
      { line: 11, reason: "not valid JSON (truncated last line?)" },
    ]);
    expect(onlyThread(result).turns.map((t) => t.key)).toEqual(["u1"]);
  });

  it("ignores blank lines, including the trailing one", () => {
    const result = parseGeminiJsonl(numbered(`${JSON.stringify(META)}\n\n   \n${JSON.stringify(user("u1", "hi"))}\n`), { name: "s.jsonl" });
    expect(result.skipped).toEqual([]);
    expect(onlyThread(result).turns).toHaveLength(1);
  });

  it("returns no thread, with a warning, for a session without messages", () => {
    const result = parseGeminiJsonl(jsonl(META, { $set: { lastUpdated: "2026-01-01T10:00:05.000Z" } }), { name: "empty.jsonl" });
    expect(result.threads).toEqual([]);
    expect(result.warnings).toEqual(["empty.jsonl: session s-1 has no messages; nothing imported"]);
  });

  it("throws ImportFormatError for empty input and for other formats", () => {
    expect(() => parseGeminiJsonl([], { name: "empty.jsonl" })).toThrow(ImportFormatError);
    expect(() => parseGeminiJsonl(numbered("\n\n"), { name: "blank.jsonl" })).toThrow(/no metadata line with sessionId and projectHash/);
    const claude = jsonl({ type: "user", sessionId: "x", uuid: "u", message: { role: "user", content: "hi" } });
    expect(() => parseGeminiJsonl(claude, { name: "x.jsonl" })).toThrow(ImportFormatError);
    // A pretty-printed legacy file read line by line is not JSONL either.
    expect(() => parseGeminiJsonl(numbered(readFileSync(LEGACY_2025, "utf8")), { name: LEGACY_2025 })).toThrow(ImportFormatError);
  });
});

describe("malformed legacy documents", () => {
  it("throws ImportFormatError when the document is not a session", () => {
    expect(() => parseGeminiLegacy([], { name: "a.json" })).toThrow(ImportFormatError);
    expect(() => parseGeminiLegacy({ messages: [] }, { name: "a.json" })).toThrow(/sessionId missing/);
    expect(() => parseGeminiLegacy({ sessionId: "s", messages: {} }, { name: "a.json" })).toThrow(/messages is not an array/);
  });

  it("skips bad messages by JSON path and keeps the rest", () => {
    const result = parseGeminiLegacy(
      {
        sessionId: "s",
        projectHash: "h",
        startTime: "2026-01-01T10:00:00Z",
        messages: ["x", { type: "user", content: "no id" }, user("u1", "ok"), { id: "g", type: 3 }],
        summary: "Short summary",
      },
      { name: "a.json" },
    );
    expect(result.skipped).toEqual([
      { path: "messages[0]", reason: "not a JSON object" },
      { path: "messages[1]", reason: "id: missing or not a string" },
      { path: "messages[3]", reason: "message g: type missing or not a string" },
    ]);
    const thread = onlyThread(result);
    expect(thread.turns.map((t) => t.key)).toEqual(["u1"]);
    expect(thread.title).toBe("Short summary");
    expect(thread.createdAt).toBe("2026-01-01T10:00:00.000Z");
    expect(thread.lastUpdatedAt).toBe("2026-01-01T10:00:01.000Z"); // no lastUpdated: the last turn
  });
});
