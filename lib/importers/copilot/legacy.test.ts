// The legacy single-JSON mapping on synthetic sessions: bad arguments, failed tools, system prompts,
// unmatched timeline entries, bad messages.
import { describe, expect, it } from "vitest";
import { detectFormat } from "../index";
import { ImportFormatError } from "../types";
import { looksLikeCopilotLegacy, parseCopilotLegacy } from "./index";
import { expectPaired, onlyThread } from "./test-helpers";

const doc = (chatMessages: unknown[], timeline: unknown[] = []) => ({
  sessionId: "s-1",
  startTime: "2025-10-11T11:40:20.882Z",
  chatMessages,
  timeline,
});
const call = (id: string, name: string, args: string) => ({ id, type: "function", function: { name, arguments: args } });

describe("legacy history-session-state JSON", () => {
  it("keeps arguments that do not parse as the raw string, and marks a failed result from the timeline", () => {
    const result = parseCopilotLegacy(
      doc(
        [
          { role: "system", content: "You are Copilot." },
          { role: "user", content: "fix it\n\n<reminder>x</reminder>" },
          { role: "assistant", tool_calls: [call("t1", "bash", "{not json")] },
          { role: "tool", tool_call_id: "t1", content: "boom" },
        ],
        [
          { id: "u", timestamp: "2025-10-11T11:40:21.000Z", type: "user", text: "fix it" },
          {
            id: "x",
            timestamp: "2025-10-11T11:40:22.000Z",
            type: "tool_call_completed",
            callId: "t1",
            name: "bash",
            toolTitle: "bash",
            arguments: {},
            result: { type: "failure", log: "boom\nstack" },
          },
          { id: "y", timestamp: "2025-10-11T11:40:23.000Z", type: "something_new", text: "?" },
        ],
      ),
      { name: "session_s-1_1.json" },
    );
    const thread = onlyThread(result);
    expect(thread.initialContext).toEqual({ instructions: "You are Copilot." });
    expect(thread.turns.map((t) => t.role)).toEqual(["user", "assistant", "tool"]);
    expect(thread.turns[0]).toMatchObject({
      content: "fix it",
      timestamp: "2025-10-11T11:40:21.000Z",
      metadata: { transformedContent: "fix it\n\n<reminder>x</reminder>" },
    });
    expect(thread.turns[1]!.parts).toEqual([
      { type: "tool_call", id: "t1", name: "bash", arguments: "{not json", requestType: "function" },
    ]);
    expect(thread.turns[2]!.parts).toEqual([
      {
        type: "tool_result",
        toolCallId: "t1",
        content: "boom",
        isError: true,
        status: "failure",
        detailedContent: "boom\nstack",
        toolTitle: "bash",
        timelineId: "x",
      },
    ]);
    expect(thread.turns[2]!.timestamp).toBe("2025-10-11T11:40:22.000Z");
    expect(expectPaired(thread)).toBe(1);
    expect(thread.metadata?.unmatchedTimeline).toEqual([
      { id: "y", timestamp: "2025-10-11T11:40:23.000Z", type: "something_new", text: "?", index: 2 },
    ]);
    expect(thread.lastUpdatedAt).toBe("2025-10-11T11:40:23.000Z");
  });

  it("skips messages it cannot read, by JSON path, and warns of a result without its call", () => {
    const result = parseCopilotLegacy(
      doc([
        "text",
        { role: "critic", content: "x" },
        { role: "tool", content: "no id" },
        { role: "tool", tool_call_id: "zz", content: "r" },
      ]),
      { name: "s.json" },
    );
    expect(result.skipped).toEqual([
      { path: "chatMessages[0]", reason: "not a JSON object" },
      { path: "chatMessages[1]", reason: 'role "critic" is not user, assistant, tool or system' },
      { path: "chatMessages[2]", reason: "a tool message without a tool_call_id" },
    ]);
    expect(result.warnings).toEqual(["chatMessages[3]: result of tool call zz, which no earlier assistant message requested"]);
  });

  it("refuses a document that is not a session, and is told apart from other JSON documents", () => {
    expect(() => parseCopilotLegacy({ sessionId: 3, chatMessages: [] }, { name: "s.json" })).toThrow(ImportFormatError);
    expect(() => parseCopilotLegacy([], { name: "s.json" })).toThrow(/s\.json: not a GitHub Copilot CLI session/);
    expect(looksLikeCopilotLegacy(doc([]))).toBe(true);
    expect(looksLikeCopilotLegacy({ sessionId: "x", messages: [], projectHash: "h" })).toBe(false);
    expect(detectFormat("session_s-1_1.json", JSON.stringify(doc([{ role: "user", content: "hi" }]))).format).toBe("copilot");
  });
});
