import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikePalThreads } from "./pal";
import { looksLikePlainMessages, parsePlainMessages } from "./plain";
import { looksLikePydanticAiMessages } from "./pydantic-ai";
import { ImportFormatError } from "./types";

/*
 * No public sample files exist for this shape; the samples below are the ones the design that
 * defines it uses (an orchestrator's "Conversation History Integration Design": section 2's
 * expected data structure, section 3's stored form with `truncated`, section 10's
 * test_conversation_history_invalid_structure and section 12's None entries).
 */
const source = { name: "exports/auth-bug.history.json" };

const seedConversation = [
  { role: "user", content: "Can you help me fix the authentication bug?" },
  { role: "assistant", content: "I'll investigate the auth system..." },
  { role: "user", content: "It's specifically in the JWT validation" },
];

describe("parsePlainMessages: a valid list", () => {
  const result = parsePlainMessages(seedConversation, source);
  const thread = result.threads[0]!;

  it("is one thread keyed by the file name without directories and extension", () => {
    expect(result.format).toBe("plain");
    expect(result.threads).toHaveLength(1);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread.key).toBe("auth-bug.history");
    expect(thread.toolName).toBe("import");
    expect(thread.title).toBe("Can you help me fix the authentication bug?");
  });

  it("gives one turn per message, keyed by its index", () => {
    expect(thread.turns.map((t) => [t.key, t.role, t.content])).toEqual([
      ["0", "user", "Can you help me fix the authentication bug?"],
      ["1", "assistant", "I'll investigate the auth system..."],
      ["2", "user", "It's specifically in the JWT validation"],
    ]);
  });

  it("keeps system messages, trims content as the design stores it, and keeps the truncated flag", () => {
    const stored = [
      { role: "system", content: "  You are the auth investigator.\n" },
      { role: "user", content: "Can you help me fix...", truncated: false },
      { role: "assistant", content: "I'll investigate... [8KB content truncated at 8192 chars]", truncated: true },
    ];
    const turns = parsePlainMessages(stored, source).threads[0]!.turns;
    expect(turns.map((t) => t.role)).toEqual(["system", "user", "assistant"]);
    expect(turns[0]!.content).toBe("You are the auth investigator.");
    expect(turns[1]!.metadata).toBeUndefined();
    expect(turns[2]!.metadata).toEqual({ truncated: true });
  });

  it("titles by the first user message (not a system one), collapsed and cut at 100 characters", () => {
    const long = [
      { role: "system", content: "Be brief." },
      { role: "user", content: `Please\n\n${"look ".repeat(30)}` },
    ];
    const title = parsePlainMessages(long, source).threads[0]!.title!;
    expect(title.startsWith("Please look look")).toBe(true);
    // "Please" and 18 "look"s and their spaces are 97 characters: a 19th would not leave room for the "…".
    expect(title).toBe(`Please ${"look ".repeat(18).trim()}…`);
    expect(parsePlainMessages([{ role: "assistant", content: "Hello" }], source).threads[0]!.title).toBeNull();
  });
});

describe("parsePlainMessages: entries failing validation are skipped one by one", () => {
  it("the design's invalid-structure case: one valid message, three skips naming the field", () => {
    const result = parsePlainMessages(
      [
        { role: "user", content: "Valid message" },
        { invalid: "structure" },
        { role: "user", content: "" },
        { role: "invalid_role", content: "test" },
      ],
      source,
    );
    expect(result.threads[0]!.turns.map((t) => t.key)).toEqual(["0"]);
    expect(result.skipped).toEqual([
      { path: "[1]", reason: "role: must be one of user, assistant, system" },
      { path: "[2]", reason: "content: must be a non-empty string" },
      { path: "[3]", reason: "role: must be one of user, assistant, system" },
    ]);
  });

  it("None entries, blank or non-string content, and a tool role are skipped; keys keep their index", () => {
    const result = parsePlainMessages(
      [
        null,
        { role: "user", content: "Help me" },
        null,
        { role: "assistant", content: "   \n" },
        { role: "assistant", content: ["a"] },
        { role: "tool", content: "x" },
        { role: "assistant", content: "Sure, I'll help" },
      ],
      source,
    );
    expect(result.threads[0]!.turns.map((t) => [t.key, t.content])).toEqual([
      ["1", "Help me"],
      ["6", "Sure, I'll help"],
    ]);
    expect(result.skipped).toEqual([
      { path: "[0]", reason: "must be an object with role and content" },
      { path: "[2]", reason: "must be an object with role and content" },
      { path: "[3]", reason: "content: must be a non-empty string" },
      { path: "[4]", reason: "content: must be a non-empty string" },
      { path: "[5]", reason: "role: must be one of user, assistant, system" },
    ]);
  });

  it("a list with no valid entry gives no thread and the skips, not an exception", () => {
    const result = parsePlainMessages([{ role: "robot", content: "beep" }, { role: "user" }, 3], source);
    expect(result.threads).toEqual([]);
    expect(result.skipped).toHaveLength(3);
    expect(result.warnings).toEqual(["exports/auth-bug.history.json: no valid message in the list, nothing to import"]);
  });

  it("an empty list gives no thread and a warning", () => {
    const result = parsePlainMessages([], source);
    expect(result.threads).toEqual([]);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toHaveLength(1);
  });
});

describe("parsePlainMessages: not a list", () => {
  it("throws ImportFormatError for an object (the design knows no {messages: [...]} wrapper) or a scalar", () => {
    expect(() => parsePlainMessages({ messages: seedConversation }, source)).toThrow(ImportFormatError);
    expect(() => parsePlainMessages("user: hi", source)).toThrow(/not a role\/content list/);
  });
});

// --- detection across formats --------------------------------------------------------------------

const REAL = path.join(process.cwd(), "fixtures/real");

function realFixtures(): { name: string; value: unknown }[] {
  const found: { name: string; value: unknown }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".json")) found.push({ name: entry.name, value: JSON.parse(fs.readFileSync(full, "utf8")) });
      else if (entry.name.endsWith(".jsonl")) {
        const firstLine = fs.readFileSync(full, "utf8").split("\n")[0]!;
        // The first line both under its real name and as if it were a .json document.
        found.push({ name: entry.name, value: JSON.parse(firstLine) });
        found.push({ name: entry.name.replace(/\.jsonl$/, ".json"), value: JSON.parse(firstLine) });
      }
    }
  };
  walk(REAL);
  return found;
}

describe("looksLikePlainMessages and the other JSON detectors are mutually exclusive", () => {
  const samples: { name: string; doc: unknown; expected: "plain" | "pal" | "pydantic-ai" | null }[] = [
    { name: "history.json", doc: seedConversation, expected: "plain" },
    {
      name: "history.json",
      doc: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      expected: "plain",
    },
    {
      name: "session.json",
      doc: [{ kind: "request", parts: [{ part_kind: "user-prompt", content: "hi", timestamp: "2026-01-01T10:00:00Z" }] }],
      expected: "pydantic-ai",
    },
    {
      name: "pal.json",
      doc: {
        thread_id: "7d0c5e2a-8f3b-4c1d-9e6a-2b4f8a1c3d5e",
        turns: [],
        tool_name: "chat",
        created_at: "",
        last_updated_at: "",
        initial_context: {},
      },
      expected: "pal",
    },
    { name: "export.json", doc: { format: "threadline/v1", threads: [] }, expected: null },
    { name: "conversations.json", doc: [{ id: "c", title: "t", mapping: {}, current_node: null }], expected: null },
    { name: "openai-style.json", doc: { messages: seedConversation }, expected: null },
    { name: "empty.json", doc: [], expected: null },
    { name: "history.jsonl", doc: seedConversation, expected: null },
  ];
  const detectors = { plain: looksLikePlainMessages, pal: looksLikePalThreads, "pydantic-ai": looksLikePydanticAiMessages } as const;

  it.each(samples)("$name ($expected)", ({ name, doc, expected }) => {
    const claimed = Object.entries(detectors)
      .filter(([, looksLike]) => looksLike(doc, name))
      .map(([format]) => format);
    expect(claimed).toEqual(expected ? [expected] : []);
  });

  it("none of the three claims any real fixture of the other formats (ChatGPT, Gemini JSON, first lines of JSONL files)", () => {
    const fixtures = realFixtures();
    // 6 .json files (1 ChatGPT, 2 Gemini legacy, 2 OpenCode exports, 1 legacy Copilot session) and 15 .jsonl files counted
    // twice: `find fixtures/real -name "*.json" | wc -l` = 6, `-name "*.jsonl"` = 15.
    expect(fixtures).toHaveLength(6 + 15 * 2);
    for (const { name, value } of fixtures) {
      expect([
        name,
        looksLikePlainMessages(value, name),
        looksLikePalThreads(value, name),
        looksLikePydanticAiMessages(value, name),
      ]).toEqual([name, false, false, false]);
    }
  });
});
