import { describe, expect, it } from "vitest";
import { ImportFormatError } from "../types";
import { looksLikePydanticAiMessages, parsePydanticAiMessages } from "./index";
import { PNG_BASE64, session, source } from "./test-helpers";

describe("parsePydanticAiMessages: smaller rules", () => {
  const response = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
    parts,
    usage: { input_tokens: 10, output_tokens: 2 },
    model_name: "gpt-4o",
    timestamp: "2026-01-01T10:00:01Z",
    kind: "response",
    ...extra,
  });

  it("a minimal history: a prompt, a tool call, its return and the answer", () => {
    const doc = [
      {
        kind: "request",
        parts: [
          { part_kind: "system-prompt", content: "Be brief.", timestamp: "2026-01-01T10:00:00Z" },
          { part_kind: "user-prompt", content: "weather in Paris?", timestamp: "2026-01-01T10:00:00Z" },
        ],
        instructions: null,
        run_id: "r1",
      },
      {
        kind: "response",
        parts: [{ part_kind: "tool-call", tool_name: "get_weather", args: { city: "Paris" }, tool_call_id: "call_1" }],
        usage: { input_tokens: 50, cache_write_tokens: 0, cache_read_tokens: 0, output_tokens: 12, details: {} },
        model_name: "gpt-4o",
        provider_name: "openai",
        timestamp: "2026-01-01T10:00:01Z",
        finish_reason: "tool_call",
        run_id: "r1",
      },
      {
        kind: "request",
        parts: [
          {
            part_kind: "tool-return",
            tool_name: "get_weather",
            content: "sunny",
            tool_call_id: "call_1",
            timestamp: "2026-01-01T10:00:02Z",
          },
        ],
        run_id: "r1",
      },
      {
        kind: "response",
        parts: [{ part_kind: "text", content: "Sunny." }],
        usage: { input_tokens: 70, output_tokens: 3 },
        model_name: "gpt-4o",
        timestamp: "2026-01-01T10:00:03Z",
        finish_reason: "stop",
        run_id: "r1",
      },
    ];
    const turns = parsePydanticAiMessages(doc, { name: "weather.json" }).threads[0]!.turns;
    expect(turns.map((t) => `${t.key}:${t.role}:${t.content}`)).toEqual([
      "0:0:system:Be brief.",
      "0:1:user:weather in Paris?",
      '1:assistant:[get_weather] {"city":"Paris"}',
      "2:tool:sunny",
      "3:assistant:Sunny.",
    ]);
    expect(turns[4]!.modelProvider).toBe("openai"); // no provider_name: from "gpt-4o"
  });

  it("keeps tool arguments that are not valid JSON as the raw string", () => {
    const doc = [
      { kind: "request", parts: [{ part_kind: "user-prompt", content: "go" }] },
      response([{ part_kind: "tool-call", tool_name: "run", args: '{"cmd": "ls', tool_call_id: "c1" }]),
    ];
    const call = parsePydanticAiMessages(doc, source).threads[0]!.turns[1]!.parts![0]!;
    expect(call).toEqual({ type: "tool_call", id: "c1", name: "run", arguments: '{"cmd": "ls' });
  });

  it("a tool return whose outcome failed or was denied is an error", () => {
    const doc = [
      response([{ part_kind: "tool-call", tool_name: "rm", args: {}, tool_call_id: "c1" }]),
      {
        kind: "request",
        parts: [{ part_kind: "tool-return", tool_name: "rm", content: "denied by user", tool_call_id: "c1", outcome: "denied" }],
      },
    ];
    expect(parsePydanticAiMessages(doc, source).threads[0]!.turns[1]!.parts![0]).toMatchObject({ toolCallId: "c1", isError: true });
  });

  it("strips base64 payloads from tool results (BinaryContent, data: URLs)", () => {
    const doc = [
      response([{ part_kind: "tool-call", tool_name: "screenshot", args: null, tool_call_id: "c1" }]),
      {
        kind: "request",
        parts: [
          {
            part_kind: "tool-return",
            tool_name: "screenshot",
            content: [
              { data: PNG_BASE64, media_type: "image/png", identifier: "aa11bb", kind: "binary" },
              `data:image/png;base64,${PNG_BASE64}`,
            ],
            tool_call_id: "c1",
          },
        ],
      },
    ];
    const tool = parsePydanticAiMessages(doc, source).threads[0]!.turns[1]!;
    expect(JSON.stringify(tool)).not.toContain(PNG_BASE64.slice(0, 20));
    expect(tool.content).toBe("[image]\n[image/png omitted]");
    expect(tool.parts![0]).toMatchObject({
      content: [{ data: "[binary data omitted]", media_type: "image/png", kind: "binary" }, "[image/png omitted]"],
    });
  });

  it("other attachments are labelled in the text", () => {
    const doc = [
      {
        kind: "request",
        parts: [
          {
            part_kind: "user-prompt",
            content: [
              "Summarise",
              { url: "https://example.com/a.pdf", kind: "document-url", media_type: "application/pdf" },
              { kind: "cache-point", ttl: "5m" },
            ],
          },
        ],
      },
    ];
    expect(parsePydanticAiMessages(doc, source).threads[0]!.turns[0]!.content).toBe("Summarise\n\n[document: https://example.com/a.pdf]");
  });

  it("an encrypted compaction (OpenAI: content null) is marked but not rendered; a response with nothing else and no usage gives no assistant turn", () => {
    const doc = [
      { kind: "request", parts: [{ part_kind: "user-prompt", content: "hi" }] },
      {
        kind: "response",
        parts: [{ part_kind: "compaction", content: null, provider_name: "openai", provider_details: { encrypted_content: "ENC123" } }],
        timestamp: "2026-01-01T10:00:00Z",
      },
    ];
    const turns = parsePydanticAiMessages(doc, source).threads[0]!.turns;
    expect(turns.map((t) => `${t.key}:${t.role}:${t.content}`)).toEqual(["0:user:hi", "1:0:system:Conversation compacted"]);
    expect(JSON.stringify(turns)).not.toContain("ENC123");
  });

  it("reads zone-less timestamps as UTC", () => {
    const doc = [{ kind: "request", parts: [{ part_kind: "user-prompt", content: "hi", timestamp: "2026-01-01T10:00:00.250000" }] }];
    expect(parsePydanticAiMessages(doc, source).threads[0]!.turns[0]!.timestamp).toBe("2026-01-01T10:00:00.250Z");
  });
});

describe("parsePydanticAiMessages: bad entries are skipped, not fatal", () => {
  it("skips broken messages and parts with a path and reason, ignores unknown kinds silently", () => {
    const doc = [
      { kind: "request", parts: [{ part_kind: "user-prompt", content: "start" }] },
      5,
      { parts: [] },
      { kind: "request", parts: "oops" },
      { kind: "event", parts: [] }, // a newer message kind
      {
        kind: "response",
        parts: [
          { part_kind: "tool-call", tool_name: "x", args: "{}" },
          "text?",
          { part_kind: "speech", content: "…" }, // a newer part kind
          { part_kind: "text", content: "done" },
        ],
        timestamp: "2026-01-01T10:00:00Z",
      },
      {
        kind: "request",
        parts: [
          { part_kind: "tool-return", tool_name: "x", content: "r" },
          { part_kind: "user-prompt", content: 42 },
          { part_kind: "user-prompt", content: "again" },
        ],
      },
    ];
    const result = parsePydanticAiMessages(doc, source);
    expect(result.skipped).toEqual([
      { path: "[1]", reason: 'must be a message object with kind "request" or "response"' },
      { path: "[2]", reason: 'kind: must be "request" or "response"' },
      { path: "[3]", reason: "parts: must be a list" },
      { path: "[5].parts[0]", reason: "tool_call_id: must be a non-empty string" },
      { path: "[5].parts[1]", reason: "must be a part object with a part_kind" },
      { path: "[6].parts[0]", reason: "tool_call_id: must be a non-empty string" },
      { path: "[6].parts[1]", reason: "content: must be a string or a list of user content" },
    ]);
    expect(result.threads[0]!.turns.map((t) => `${t.key}:${t.role}:${t.content}`)).toEqual([
      "0:user:start",
      "5:assistant:done",
      "6:user:again",
    ]);
  });

  it("an empty list is no thread and a warning", () => {
    const result = parsePydanticAiMessages([], source);
    expect(result.threads).toEqual([]);
    expect(result.warnings).toEqual(["sessions/2026-03-01-paris.json: the message list is empty, nothing to import"]);
  });

  it("throws ImportFormatError when the document is not a message list", () => {
    expect(() => parsePydanticAiMessages({ kind: "request", parts: [] }, source)).toThrow(ImportFormatError);
    expect(() => parsePydanticAiMessages([{ role: "user", content: "hi" }], source)).toThrow(/no element has kind "request" or "response"/);
  });
});

describe("looksLikePydanticAiMessages", () => {
  it("claims a message list", () => {
    expect(looksLikePydanticAiMessages(session, "session.json")).toBe(true);
    expect(looksLikePydanticAiMessages([session[1]], "x.json")).toBe(true);
  });

  it("does not claim other shapes", () => {
    expect(looksLikePydanticAiMessages(session, "session.jsonl")).toBe(false);
    expect(looksLikePydanticAiMessages(session[0], "session.json")).toBe(false);
    expect(looksLikePydanticAiMessages([{ role: "user", content: "hi" }], "h.json")).toBe(false);
    expect(looksLikePydanticAiMessages([{ id: "c", mapping: {}, current_node: null }], "conversations.json")).toBe(false);
    expect(looksLikePydanticAiMessages([{ kind: "request" }], "x.json")).toBe(false); // no parts
    expect(looksLikePydanticAiMessages([], "x.json")).toBe(false);
  });
});
