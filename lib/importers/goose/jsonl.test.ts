import { describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { detectLineFormat, numberedLines } from "../index";
import { expectPaired, jsonl, onlyThread, partsOf } from "../test-helpers";
import { looksLikeGooseJsonl, parseGooseJsonl } from "./index";

const text = (t: string) => ({ type: "text", text: t });
const request = (id: string, name: string, args: unknown) => ({
  type: "toolRequest",
  id,
  toolCall: { status: "success", value: { name, arguments: args } },
});

describe("a legacy session file (<session id>.jsonl)", () => {
  const metadata = {
    working_dir: "/home/dev/notes",
    description: "Summarize notes",
    schedule_id: null,
    message_count: 3,
    total_tokens: 500,
    input_tokens: 450,
    output_tokens: 50,
    accumulated_total_tokens: 900,
    accumulated_input_tokens: 800,
    accumulated_output_tokens: 100,
  };
  const user = { role: "user", created: 1749924882, content: [text("Summarize notes.md")] };
  const assistant = {
    role: "assistant",
    created: 1749924886,
    content: [text("Reading."), request("call_a1", "developer__text_editor", { command: "view", path: "notes.md" })],
  };
  const result = {
    role: "user",
    created: 1749924887,
    content: [{ type: "toolResponse", id: "call_a1", toolResult: { status: "success", value: [text("# Notes")] } }],
  };

  it("is detected by its metadata line or, without one, by its first message; other formats' lines are not", () => {
    expect(looksLikeGooseJsonl(metadata)).toBe(true);
    expect(looksLikeGooseJsonl(user)).toBe(true);
    expect(looksLikeGooseJsonl({ role: "user", content: "text", created: 1 })).toBe(false);
    expect(looksLikeGooseJsonl({ role: "user", created: 1.5, content: [text("x")] })).toBe(false);
    expect(looksLikeGooseJsonl({ type: "session", id: "x", cwd: "/" })).toBe(false);
    expect(detectLineFormat("20250614_181442.jsonl", jsonl(metadata, user)).format).toBe("goose");
  });

  it("is one thread keyed by the file name: the description as title, its totals as session totals", () => {
    const parsed = parseGooseJsonl(jsonl(metadata, user, assistant, result), {
      name: "/home/dev/.local/share/goose/sessions/20250614_181442.jsonl",
    });
    const thread = onlyThread(parsed);
    expect(thread).toMatchObject({
      key: "20250614_181442",
      title: "Summarize notes",
      project: "/home/dev/notes",
      createdAt: "2025-06-14T18:14:42.000Z",
    });
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["line:2", "user"],
      ["line:3", "assistant"],
      ["line:4", "tool"],
    ]);
    expect(expectPaired(thread)).toBe(1);
    expect(partsOf(thread, "tool_result")[0]).toMatchObject({ content: "# Notes" });
    expect(sessionTotalsOf(thread.metadata)!.models).toEqual({
      unknown: {
        requests: 0,
        premiumRequests: 0,
        inputTokens: 800,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 100,
        reasoningTokens: 0,
        reportedInputTokens: 800,
      },
    });
    expect(thread.turns[1]!.metadata).toMatchObject({ usageIn: "sessionTotals" });
    expect(thread.metadata).toMatchObject({
      source: "jsonl",
      lastUsage: { inputTokens: 450, outputTokens: 50, totalTokens: 500 },
      messageCount: 3,
    });
  });

  it("reads a file without a metadata line, skips lines that are not JSON or no message", () => {
    const parsed = parseGooseJsonl(
      numberedLines(
        [
          JSON.stringify({ ...user, id: "m1" }),
          "{broken",
          JSON.stringify({ role: "system", content: [] }),
          "",
          JSON.stringify(assistant),
        ].join("\n"),
      ),
      {
        name: "named-session.jsonl",
      },
    );
    const thread = onlyThread(parsed);
    expect(thread.key).toBe("named-session");
    expect(thread.title).toBe("Summarize notes.md");
    expect(thread.turns.map((t) => t.key)).toEqual(["m1", "line:5"]);
    expect(parsed.skipped).toEqual([
      { line: 2, reason: "not JSON" },
      { line: 3, reason: 'role "system": not a goose message' },
    ]);
    expect(thread.metadata?.sessionTotals).toBeUndefined();
  });

  it("refuses a file with neither a metadata line nor a message", () => {
    expect(() => parseGooseJsonl(numberedLines('{"role":"system","content":[]}'), { name: "x.jsonl" })).toThrow(/not a Goose session file/);
  });
});
