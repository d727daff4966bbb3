import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { looksLikePydanticAiMessages, parsePydanticAiMessages } from "./pydantic-ai";
import { ImportFormatError, type ImportedTurn } from "./types";

/*
 * No public pydantic-ai dumps exist beyond the library's own test snapshots,
 * so this session is written by hand in exactly the shape `ModelMessagesTypeAdapter.dump_json()`
 * gives (docs/formats.md §10, "pydantic-ai"; pydantic_ai/messages.py and usage.py): every field pydantic
 * serialises, microsecond timestamps with Z, usage with its audio counters and `details`.
 * It is a co-cli style session (co-cli's conversation-memory design) over three agent runs, and exercises:
 *   [0]  request: system-prompt + user-prompt                       -> turns 0:0 (system), 0:1 (user)
 *   [1]  response: thinking (with an encrypted signature) + tool-call, args as a JSON string
 *   [2]  request: tool-return with dict content                      -> tool turn
 *   [3]  response: tool-call with dict args that fail validation
 *   [4]  request: retry-prompt with tool_name + error details list   -> tool turn, error
 *   [5]  response: tool-call retried
 *   [6]  request: tool-return with string content
 *   [7]  response: text
 *   [8]  request: new instructions, user-prompt with text + base64 image + image URL
 *   [9]  response: an old dump's usage (request_tokens/response_tokens), no provider_name
 *   [10] request: the same instructions again (no new system turn), user-prompt
 *   [11] response: google-gla provider
 *   [12] request: retry-prompt without tool_name (output validation) -> user turn
 *   [13] response: compaction + builtin web search call/return + text, Anthropic cache usage
 */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const SIGNATURE = "gAAAAABpQ2encryptedreasoningZXhhbXBsZQ==";

const audioZeros = { input_audio_tokens: 0, cache_audio_read_tokens: 0, output_audio_tokens: 0 };

const session = [
  {
    parts: [
      {
        content: "You are co, a personal assistant in the terminal. Be concise.",
        timestamp: "2026-03-01T09:00:00.123456Z",
        dynamic_ref: null,
        part_kind: "system-prompt",
      },
      {
        content: "What's the weather in Paris and should I bring an umbrella?",
        timestamp: "2026-03-01T09:00:00.123456Z",
        part_kind: "user-prompt",
      },
    ],
    instructions: null,
    kind: "request",
    run_id: "run-1",
  },
  {
    parts: [
      {
        content: "The user wants current weather; call get_weather.",
        id: "rs_01",
        signature: SIGNATURE,
        provider_name: "openai",
        part_kind: "thinking",
      },
      { tool_name: "get_weather", args: '{"city":"Paris"}', tool_call_id: "call_w1", id: null, part_kind: "tool-call" },
    ],
    usage: {
      input_tokens: 820,
      cache_write_tokens: 0,
      cache_read_tokens: 512,
      output_tokens: 64,
      ...audioZeros,
      details: { accepted_prediction_tokens: 0, reasoning_tokens: 32 },
    },
    model_name: "gpt-4o-2024-08-06",
    timestamp: "2026-03-01T09:00:02Z",
    kind: "response",
    provider_name: "openai",
    provider_details: { finish_reason: "tool_calls" },
    provider_response_id: "chatcmpl-A1",
    finish_reason: "tool_call",
    run_id: "run-1",
  },
  {
    parts: [
      {
        tool_name: "get_weather",
        content: { temp_c: 14, conditions: "light rain" },
        tool_call_id: "call_w1",
        metadata: null,
        timestamp: "2026-03-01T09:00:02.500000Z",
        part_kind: "tool-return",
      },
    ],
    instructions: null,
    kind: "request",
    run_id: "run-1",
  },
  {
    parts: [{ tool_name: "get_forecast", args: { city: "Paris", days: "two" }, tool_call_id: "call_f1", id: null, part_kind: "tool-call" }],
    usage: {
      input_tokens: 900,
      cache_write_tokens: 0,
      cache_read_tokens: 768,
      output_tokens: 40,
      ...audioZeros,
      details: { reasoning_tokens: 0 },
    },
    model_name: "gpt-4o-2024-08-06",
    timestamp: "2026-03-01T09:00:03Z",
    kind: "response",
    provider_name: "openai",
    finish_reason: "tool_call",
    run_id: "run-1",
  },
  {
    parts: [
      {
        content: [
          {
            type: "int_parsing",
            loc: ["days"],
            msg: "Input should be a valid integer, unable to parse string as an integer",
            input: "two",
          },
        ],
        tool_name: "get_forecast",
        tool_call_id: "call_f1",
        timestamp: "2026-03-01T09:00:03.200000Z",
        part_kind: "retry-prompt",
      },
    ],
    instructions: null,
    kind: "request",
    run_id: "run-1",
  },
  {
    parts: [{ tool_name: "get_forecast", args: '{"city":"Paris","days":2}', tool_call_id: "call_f2", id: null, part_kind: "tool-call" }],
    usage: { input_tokens: 960, cache_write_tokens: 0, cache_read_tokens: 896, output_tokens: 38, ...audioZeros, details: {} },
    model_name: "gpt-4o-2024-08-06",
    timestamp: "2026-03-01T09:00:04Z",
    kind: "response",
    provider_name: "openai",
    finish_reason: "tool_call",
    run_id: "run-1",
  },
  {
    parts: [
      {
        tool_name: "get_forecast",
        content: "Rain until Tuesday",
        tool_call_id: "call_f2",
        metadata: null,
        timestamp: "2026-03-01T09:00:04.400000Z",
        part_kind: "tool-return",
      },
    ],
    instructions: null,
    kind: "request",
    run_id: "run-1",
  },
  {
    parts: [{ content: "14°C with light rain in Paris, and rain until Tuesday: bring an umbrella.", id: null, part_kind: "text" }],
    usage: { input_tokens: 1010, cache_write_tokens: 0, cache_read_tokens: 896, output_tokens: 30, ...audioZeros, details: {} },
    model_name: "gpt-4o-2024-08-06",
    timestamp: "2026-03-01T09:00:05Z",
    kind: "response",
    provider_name: "openai",
    finish_reason: "stop",
    run_id: "run-1",
  },
  {
    parts: [
      {
        content: [
          "Is this jacket waterproof enough?",
          { data: PNG_BASE64, media_type: "image/png", identifier: "4f2a1c", vendor_metadata: null, kind: "binary" },
          {
            url: "https://shop.example.com/jacket.jpg",
            force_download: false,
            vendor_metadata: null,
            kind: "image-url",
            media_type: "image/jpeg",
            identifier: "9b8e7d",
          },
        ],
        timestamp: "2026-03-01T09:05:00Z",
        part_kind: "user-prompt",
      },
    ],
    instructions: "Answer in one paragraph.",
    kind: "request",
    run_id: "run-2",
  },
  {
    parts: [{ content: "Yes: the taped seams and 10k rating are enough for a day of rain.", part_kind: "text" }],
    usage: { requests: 1, request_tokens: 1500, response_tokens: 80, total_tokens: 1580, details: null },
    model_name: "claude-3-5-sonnet-latest",
    timestamp: "2026-03-01T09:05:03Z",
    kind: "response",
  },
  {
    parts: [{ content: "Give me a packing list as JSON", timestamp: "2026-03-01T09:06:00Z", part_kind: "user-prompt" }],
    instructions: "Answer in one paragraph.",
    kind: "request",
    run_id: "run-3",
  },
  {
    parts: [{ content: "packing: umbrella, jacket", id: null, part_kind: "text" }],
    usage: { input_tokens: 1700, cache_write_tokens: 0, cache_read_tokens: 0, output_tokens: 25, ...audioZeros, details: {} },
    model_name: "gemini-2.5-flash",
    timestamp: "2026-03-01T09:06:02Z",
    kind: "response",
    provider_name: "google-gla",
    finish_reason: "stop",
    run_id: "run-3",
  },
  {
    parts: [
      {
        content: "Please return JSON matching the PackingList schema",
        tool_name: null,
        tool_call_id: "pyd_ai_2f9c0e7d",
        timestamp: "2026-03-01T09:06:02.100000Z",
        part_kind: "retry-prompt",
      },
    ],
    instructions: "Answer in one paragraph.",
    kind: "request",
    run_id: "run-3",
  },
  {
    parts: [
      {
        content: "Summary: the user asked about Paris weather and a jacket; rain until Tuesday.",
        id: "cmp_1",
        provider_name: "anthropic",
        provider_details: null,
        part_kind: "compaction",
      },
      {
        tool_name: "web_search",
        args: { query: "Paris rain forecast" },
        tool_call_id: "srvtoolu_1",
        id: null,
        provider_name: "anthropic",
        part_kind: "builtin-tool-call",
      },
      {
        tool_name: "web_search",
        content: [{ title: "Paris weather", url: "https://weather.example.com/paris" }],
        tool_call_id: "srvtoolu_1",
        metadata: null,
        timestamp: "2026-03-01T09:06:06Z",
        provider_name: "anthropic",
        part_kind: "builtin-tool-return",
      },
      { content: '{"items":["umbrella","rain jacket"]}', id: null, part_kind: "text" },
    ],
    usage: { input_tokens: 4000, cache_write_tokens: 1000, cache_read_tokens: 2500, output_tokens: 120, ...audioZeros, details: {} },
    model_name: "claude-sonnet-4-5",
    timestamp: "2026-03-01T09:06:07.250000Z",
    kind: "response",
    provider_name: "anthropic",
    provider_response_id: "msg_01",
    finish_reason: "stop",
    run_id: "run-3",
  },
];

const source = { name: "sessions/2026-03-01-paris.json" };

function partsOf(turns: ImportedTurn[], type: TurnPart["type"]): TurnPart[] {
  return turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === type));
}

describe("parsePydanticAiMessages: a co-cli session", () => {
  const result = parsePydanticAiMessages(session, source);
  const thread = result.threads[0]!;
  const turns = thread.turns;
  const byKey = (key: string) => turns.find((t) => t.key === key)!;

  it("is one thread keyed by the file name, attributed to pydantic-ai", () => {
    expect(result.format).toBe("pydantic-ai");
    expect(result.threads).toHaveLength(1);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread.key).toBe("2026-03-01-paris");
    expect(thread.toolName).toBe("pydantic-ai");
    expect(thread.title).toBe("What's the weather in Paris and should I bring an umbrella?");
    expect(thread.createdAt).toBe("2026-03-01T09:00:00.123Z");
    expect(thread.lastUpdatedAt).toBe("2026-03-01T09:06:07.250Z");
    expect(thread.metadata).toEqual({ runIds: ["run-1", "run-2", "run-3"] });
  });

  it("turns in list order, with message-index keys (and part index when a message gives several)", () => {
    // Counted from the table at the top: 3 system (0:0, 8:instructions, 13:0), 4 user, 7 assistant, 3 tool.
    expect(turns.map((t) => `${t.key} ${t.role}`)).toEqual([
      "0:0 system",
      "0:1 user",
      "1 assistant",
      "2 tool",
      "3 assistant",
      "4 tool",
      "5 assistant",
      "6 tool",
      "7 assistant",
      "8:instructions system",
      "8 user",
      "9 assistant",
      "10 user",
      "11 assistant",
      "12 user",
      "13:0 system",
      "13 assistant",
    ]);
    expect(new Set(turns.map((t) => t.key)).size).toBe(turns.length);
  });

  it("tool calls pair with their results by tool_call_id", () => {
    const calls = partsOf(turns, "tool_call") as Extract<TurnPart, { type: "tool_call" }>[];
    const results = partsOf(turns, "tool_result") as Extract<TurnPart, { type: "tool_result" }>[];
    expect(calls.map((c) => `${c.id} ${c.name}`)).toEqual([
      "call_w1 get_weather",
      "call_f1 get_forecast",
      "call_f2 get_forecast",
      "srvtoolu_1 web_search",
    ]);
    expect(results.map((r) => r.toolCallId)).toEqual(["call_w1", "call_f1", "call_f2", "srvtoolu_1"]);
    expect(results.map((r) => r.isError === true)).toEqual([false, true, false, false]);
  });

  it("tool-call args: a JSON string is parsed, a dict kept", () => {
    const calls = partsOf(turns, "tool_call") as Extract<TurnPart, { type: "tool_call" }>[];
    expect(calls[0]!.arguments).toEqual({ city: "Paris" });
    expect(calls[1]!.arguments).toEqual({ city: "Paris", days: "two" });
    expect(calls[2]!.arguments).toEqual({ city: "Paris", days: 2 });
    expect(byKey("1").content).toBe('[get_weather] {"city":"Paris"}');
  });

  it("tool returns become tool turns whose text is the result", () => {
    expect(byKey("2").content).toBe('{"temp_c":14,"conditions":"light rain"}');
    expect(byKey("2").parts).toEqual([
      { type: "tool_result", toolCallId: "call_w1", content: { temp_c: 14, conditions: "light rain" }, toolName: "get_weather" },
    ]);
    expect(byKey("6").content).toBe("Rain until Tuesday");
    expect(byKey("2").timestamp).toBe("2026-03-01T09:00:02.500Z");
  });

  it("a tool retry is an error result; an output-validation retry is a user turn", () => {
    expect(byKey("4").role).toBe("tool");
    expect(byKey("4").content).toBe("days: Input should be a valid integer, unable to parse string as an integer");
    expect(byKey("12")).toMatchObject({
      role: "user",
      content: "Please return JSON matching the PackingList schema",
      metadata: { retryPrompt: true },
    });
  });

  it("thinking is a part but not in the text, and its encrypted signature is dropped", () => {
    expect(byKey("1").parts![0]).toEqual({ type: "thinking", text: "The user wants current weather; call get_weather." });
    expect(byKey("1").content).not.toContain("The user wants");
    expect(JSON.stringify(result)).not.toContain(SIGNATURE);
  });

  it("images: parts with media type and label, never the base64 data", () => {
    const user = byKey("8");
    expect(user.content).toBe("Is this jacket waterproof enough?\n\n[image]\n\n[image]");
    expect(user.parts).toEqual([
      { type: "text", text: "Is this jacket waterproof enough?" },
      { type: "image", mediaType: "image/png", alt: "image 4f2a1c" },
      {
        type: "image",
        mediaType: "image/jpeg",
        alt: "image https://shop.example.com/jacket.jpg",
        url: "https://shop.example.com/jacket.jpg",
      },
    ]);
    expect(JSON.stringify(result)).not.toContain(PNG_BASE64.slice(0, 20));
  });

  it("instructions give a system turn when they appear or change, not on every request", () => {
    expect(byKey("8:instructions")).toMatchObject({
      role: "system",
      content: "Answer in one paragraph.",
      metadata: { instructions: true },
    });
    expect(turns.filter((t) => t.metadata?.instructions === true)).toHaveLength(1);
  });

  it("models and providers per response", () => {
    const assistants = turns.filter((t) => t.role === "assistant");
    expect(assistants.map((t) => `${t.modelProvider}/${t.modelName}`)).toEqual([
      "openai/gpt-4o-2024-08-06",
      "openai/gpt-4o-2024-08-06",
      "openai/gpt-4o-2024-08-06",
      "openai/gpt-4o-2024-08-06",
      "anthropic/claude-3-5-sonnet-latest", // no provider_name in the old dump: from the model name
      "google/gemini-2.5-flash", // google-gla
      "anthropic/claude-sonnet-4-5",
    ]);
    expect(byKey("1").metadata).toEqual({ providerName: "openai", finishReason: "tool_call", providerResponseId: "chatcmpl-A1" });
  });

  it("usage once per response, input without cache reads and writes", () => {
    expect(byKey("1").usage).toEqual({
      inputTokens: 308,
      cacheReadTokens: 512,
      cacheWriteTokens: 0,
      outputTokens: 64,
      reasoningTokens: 32,
    });
    expect(byKey("9").usage).toEqual({ inputTokens: 1500, outputTokens: 80 });
    expect(byKey("13").usage).toEqual({ inputTokens: 500, cacheReadTokens: 2500, cacheWriteTokens: 1000, outputTokens: 120 });
    expect(turns.filter((t) => t.usage).map((t) => t.key)).toEqual(["1", "3", "5", "7", "9", "11", "13"]);
    // By hand from the sample: input 308+132+64+114+1500+1700+500, output 64+40+38+30+80+25+120,
    // cache reads 512+768+896+896+0+2500, cache writes 1000, reasoning 32+0.
    const sum = (field: "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "reasoningTokens") =>
      turns.reduce((n, t) => n + (t.usage?.[field] ?? 0), 0);
    expect([sum("inputTokens"), sum("outputTokens"), sum("cacheReadTokens"), sum("cacheWriteTokens"), sum("reasoningTokens")]).toEqual([
      4318, 397, 5572, 1000, 32,
    ]);
  });

  it("a compaction part is a system turn marking it, before the response's own turn", () => {
    expect(byKey("13:0")).toMatchObject({
      role: "system",
      content: "Summary: the user asked about Paris weather and a jacket; rain until Tuesday.",
      compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
    });
    const final = byKey("13");
    expect(final.parts!.map((p) => p.type)).toEqual(["tool_call", "tool_result", "text"]);
    expect(final.parts![0]).toMatchObject({ builtin: true, arguments: { query: "Paris rain forecast" } });
    expect(final.content).toBe('[web_search] {"query":"Paris rain forecast"}\n\n{"items":["umbrella","rain jacket"]}');
  });
});

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
