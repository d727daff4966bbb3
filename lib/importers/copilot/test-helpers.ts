// What the Copilot CLI importer's tests share: fixture paths, event builders, summaries of a thread.
import path from "node:path";
export { jsonl, onlyThread, partsOf, roleCounts, expectPaired } from "../test-helpers";

export const FIXTURES = path.join(process.cwd(), "fixtures/real/copilot");
export const EVENTS_FILE = path.join(FIXTURES, "session-state/96ef38f0-9d09-45c3-8124-6448c36090ed/events.jsonl");
export const LEGACY_FILE = path.join(FIXTURES, "history-session-state/session_06141331-92e8-4e9e-8bbb-9b7a729eb01a_1760182820882.json");

let clock = 0;
/** One event with Copilot's envelope; ids and times count up. */
export function event(type: string, data: object, id?: string): object {
  clock += 1;
  return {
    type,
    data,
    id: id ?? `00000000-0000-4000-8000-${String(clock).padStart(12, "0")}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 10, 0, clock)).toISOString(),
    parentId: null,
  };
}

export const SESSION = "11111111-2222-4333-8444-555555555555";

export const start = (extra: object = {}) =>
  event("session.start", {
    sessionId: SESSION,
    version: 1,
    producer: "copilot-agent",
    copilotVersion: "1.0.34",
    startTime: "2026-01-01T10:00:00.000Z",
    context: { cwd: "/work/demo", branch: "main" },
    ...extra,
  });
export const user = (content: string, extra: object = {}) =>
  event("user.message", {
    content,
    transformedContent: `<current_datetime>x</current_datetime>\n\n${content}`,
    attachments: [],
    interactionId: "i1",
    ...extra,
  });
export const assistant = (extra: object) =>
  event("assistant.message", { messageId: "m", content: "", toolRequests: [], outputTokens: 10, interactionId: "i1", ...extra });
export const request = (toolCallId: string, name: string, args: object = {}) => ({ toolCallId, name, arguments: args, type: "function" });
export const toolStart = (toolCallId: string, toolName: string, args: object = {}) =>
  event("tool.execution_start", { toolCallId, toolName, arguments: args });
export const toolDone = (toolCallId: string, result: object, extra: object = {}) =>
  event("tool.execution_complete", {
    toolCallId,
    model: "claude-sonnet-4.6",
    interactionId: "i1",
    success: true,
    result,
    toolTelemetry: {},
    ...extra,
  });
export const shutdown = (
  models: Record<
    string,
    { count: number; cost: number; input: number; output: number; cacheRead: number; cacheWrite: number; reasoning?: number }
  >,
  extra: object = {},
) =>
  event("session.shutdown", {
    shutdownType: "routine",
    totalPremiumRequests: Object.values(models).reduce((sum, m) => sum + m.cost, 0),
    totalApiDurationMs: 1000,
    codeChanges: { linesAdded: 1, linesRemoved: 0, filesModified: ["a.ts"] },
    modelMetrics: Object.fromEntries(
      Object.entries(models).map(([name, m]) => [
        name,
        {
          requests: { count: m.count, cost: m.cost },
          usage: {
            inputTokens: m.input,
            outputTokens: m.output,
            cacheReadTokens: m.cacheRead,
            cacheWriteTokens: m.cacheWrite,
            reasoningTokens: m.reasoning ?? 0,
          },
        },
      ]),
    ),
    currentModel: Object.keys(models)[0],
    ...extra,
  });
