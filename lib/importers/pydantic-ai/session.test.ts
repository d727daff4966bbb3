import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import type { ImportedTurn } from "../types";
import { parsePydanticAiMessages } from "./index";
import { PNG_BASE64, session, SIGNATURE, source } from "./test-helpers";

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
