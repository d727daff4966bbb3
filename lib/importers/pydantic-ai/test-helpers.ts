// What the pydantic-ai importer's tests share: a session written by hand, its source, base64 data.
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
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
export const SIGNATURE = "gAAAAABpQ2encryptedreasoningZXhhbXBsZQ==";

const audioZeros = { input_audio_tokens: 0, cache_audio_read_tokens: 0, output_audio_tokens: 0 };

export const session = [
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

export const source = { name: "sessions/2026-03-01-paris.json" };
