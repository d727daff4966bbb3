import { describe, expect, it } from "vitest";
import { detectFormat } from "../index";
import { expectPaired, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError } from "../types";
import { looksLikeContinueSession, parseContinueSession, workspacePath } from "./index";

const call = (id: string, name: string, args: object) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
const session = (history: unknown[], extra: object = {}) => ({
  sessionId: "sess-1",
  title: "New Session",
  workspaceDirectory: "/srv/app",
  history,
  ...extra,
});
const parse = (doc: unknown) => parseContinueSession(doc, { name: "sess-1.json" });

describe("detection", () => {
  it("takes a Session document and leaves its index and other formats alone", () => {
    expect(looksLikeContinueSession(session([{ message: { role: "user", content: "hi" }, contextItems: [] }]), "x.json")).toBe(true);
    expect(looksLikeContinueSession(session([]), "x.json")).toBe(true);
    expect(looksLikeContinueSession([{ sessionId: "s", title: "t", dateCreated: "1", workspaceDirectory: "/" }], "sessions.json")).toBe(
      false,
    );
    expect(looksLikeContinueSession({ sessionId: "s", history: [{ role: "user", content: "x" }] }, "x.json")).toBe(false);
    const text = JSON.stringify(session([{ message: { role: "user", content: "hi" }, contextItems: [] }]));
    expect(detectFormat("sess-1.json", text).format).toBe("continue");
    expect(() =>
      detectFormat("sessions.json", JSON.stringify([{ sessionId: "s", title: "t", dateCreated: "1", workspaceDirectory: "/" }])),
    ).toThrow(ImportFormatError);
  });
});

describe("turns", () => {
  it("reads the IDE's items: ids as keys, thinking onto the reply, tool messages paired, model from promptLogs", () => {
    const read = call("toolu_1", "read_file", { filepath: "a.ts" });
    const thread = onlyThread(
      parse(
        session(
          [
            {
              message: {
                role: "user",
                content: [
                  { type: "text", text: "explain a.ts" },
                  { type: "imageUrl", imageUrl: { url: "data:image/png;base64,AAAA" } },
                ],
                id: "m1",
              },
              contextItems: [
                {
                  content: "const a = 1",
                  name: "a.ts",
                  description: "src/a.ts",
                  id: { providerTitle: "file", itemId: "i" },
                  uri: { type: "file", value: "file:///srv/app/a.ts" },
                },
              ],
            },
            { message: { role: "thinking", content: "Read it first.", signature: "sig", id: "m2" }, contextItems: [] },
            {
              message: { role: "assistant", content: "Reading.", toolCalls: [read], id: "m3" },
              contextItems: [],
              promptLogs: [
                {
                  modelTitle: "Claude Sonnet 4.5",
                  modelProvider: "anthropic",
                  completionOptions: { model: "claude-sonnet-4-5-20250929" },
                  prompt: "p",
                  completion: "c",
                },
              ],
              toolCallStates: [
                {
                  toolCallId: "toolu_1",
                  toolCall: read,
                  status: "done",
                  parsedArgs: { filepath: "a.ts" },
                  output: [{ content: "const a = 1", name: "a.ts", description: "a.ts" }],
                },
              ],
            },
            { message: { role: "tool", content: "const a = 1", toolCallId: "toolu_1", id: "m4" }, contextItems: [] },
            {
              message: { role: "assistant", content: "It sets a to 1.", id: "m5" },
              contextItems: [],
              promptLogs: [{ modelTitle: "GPT-4o", modelProvider: "openai", prompt: "p", completion: "c" }],
            },
          ],
          { workspaceDirectory: "file:///srv/app", chatModelTitle: "Claude Sonnet 4.5", mode: "agent" },
        ),
      ),
    );
    expect(thread.key).toBe("sess-1");
    expect(thread.toolName).toBe("continue");
    expect(thread.title).toBe("explain a.ts [image]");
    expect(thread.project).toBe("/srv/app");
    expect(thread.metadata).toMatchObject({ mode: "agent", chatModelTitle: "Claude Sonnet 4.5", workspaceDirectory: "file:///srv/app" });
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["m1", "user"],
      ["m3", "assistant"],
      ["m4", "tool"],
      ["m5", "assistant"],
    ]);
    expect(thread.turns[0]!.parts).toEqual([
      { type: "text", text: "explain a.ts" },
      { type: "image", mediaType: "image/png" },
    ]);
    expect(thread.turns[0]!.metadata?.contextItems).toEqual([{ name: "a.ts", description: "src/a.ts", uri: "file:///srv/app/a.ts" }]);
    const reply = thread.turns[1]!;
    expect(reply.parts?.[0]).toEqual({ type: "thinking", text: "Read it first." });
    expect(reply.modelName).toBe("claude-sonnet-4-5-20250929");
    expect(reply.modelProvider).toBe("anthropic");
    expect(reply.metadata?.modelTitle).toBe("Claude Sonnet 4.5");
    expect(partsOf(thread, "tool_call")).toEqual([
      { type: "tool_call", id: "toolu_1", name: "read_file", arguments: { filepath: "a.ts" } },
    ]);
    expect(expectPaired(thread)).toBe(1);
    expect(partsOf(thread, "tool_result")[0]).toMatchObject({ name: "read_file", status: "done", isError: false });
    expect(thread.turns[3]!.modelName).toBe("GPT-4o");
    expect(thread.turns.every((t) => t.usage == null)).toBe(true);
  });

  it("reads the CLI's items: usage per message, results from toolCallStates, the session's model, its compaction item", () => {
    const bash = call("call_1", "Bash", { command: "ls" });
    const doc = session(
      [
        { message: { role: "assistant", content: "Summary of before." }, contextItems: [], conversationSummary: "Summary of before." },
        { message: { role: "user", content: "list files" }, contextItems: [], editorState: "list files" },
        {
          message: {
            role: "assistant",
            content: "",
            toolCalls: [bash],
            usage: {
              promptTokens: 120,
              completionTokens: 9,
              promptTokensDetails: { cachedTokens: 800, cacheWriteTokens: 40 },
              completionTokensDetails: { reasoningTokens: 3 },
            },
          },
          contextItems: [],
          toolCallStates: [
            {
              toolCallId: "call_1",
              toolCall: bash,
              status: "errored",
              parsedArgs: { command: "ls" },
              output: [{ content: "ls: denied", name: "Tool Result", description: "d" }],
            },
          ],
        },
        { message: { role: "assistant", content: "Not allowed.", usage: { promptTokens: 30, completionTokens: 4 } }, contextItems: [] },
      ],
      { title: "List files", chatModelTitle: "gpt-5", usage: { totalCost: 0.002, promptTokens: 150, completionTokens: 13 } },
    );
    const thread = onlyThread(parse(doc));
    expect(thread.title).toBe("List files");
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["history-0", "system"],
      ["history-1", "user"],
      ["history-2", "assistant"],
      ["history-2:results", "tool"],
      ["history-3", "assistant"],
    ]);
    expect(thread.turns[0]!.compaction).toEqual({ trigger: null, tokensBefore: null, tokensAfter: null });
    expect(thread.turns[0]!.content).toBe("Summary of before.");
    const reply = thread.turns[2]!;
    expect(reply.usage).toEqual({ inputTokens: 120, cacheReadTokens: 800, cacheWriteTokens: 40, outputTokens: 9, reasoningTokens: 3 });
    expect(reply.modelName).toBe("gpt-5");
    expect(reply.metadata?.modelFromSession).toBe(true);
    expect(partsOf(thread, "tool_result")).toEqual([
      { type: "tool_result", toolCallId: "call_1", content: "ls: denied", isError: true, name: "Bash", status: "errored" },
    ]);
    expect(expectPaired(thread)).toBe(1);
    expect(thread.metadata?.sessionUsage).toEqual({ totalCost: 0.002, promptTokens: 150, completionTokens: 13 });
  });

  it("puts a compaction turn after an IDE item that carries a summary, and times turns by their reasoning", () => {
    const thread = onlyThread(
      parse(
        session([
          { message: { role: "user", content: "q", id: "u" }, contextItems: [] },
          {
            message: { role: "assistant", content: "a", id: "a" },
            contextItems: [],
            reasoning: { active: false, text: "hmm", startAt: 1767261600000, endAt: 1767261605000 },
            conversationSummary: "the story so far",
          },
        ]),
      ),
    );
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["u", "user"],
      ["a", "assistant"],
      ["a:summary", "system"],
    ]);
    expect(thread.turns[1]!.parts?.[0]).toEqual({ type: "thinking", text: "hmm" });
    expect(thread.turns[1]!.timestamp).toBe("2026-01-01T10:00:05.000Z");
    expect(thread.turns[2]!.content).toBe("the story so far");
  });

  it("reads the older single toolCallState and leaves a call still awaiting approval without result", () => {
    const edit = call("c1", "edit", { f: 1 });
    const grep = call("c2", "grep", {});
    const thread = onlyThread(
      parse(
        session([
          { message: { role: "user", content: "go" }, contextItems: [] },
          {
            message: { role: "assistant", content: "", toolCalls: [edit] },
            contextItems: [],
            toolCallState: { toolCallId: "c1", toolCall: edit, status: "done", output: [{ content: "ok" }] },
          },
          {
            message: { role: "assistant", content: "", toolCalls: [grep] },
            contextItems: [],
            toolCallStates: [{ toolCallId: "c2", toolCall: grep, status: "generated" }],
          },
        ]),
      ),
    );
    expect(partsOf(thread, "tool_result").map((p) => (p as { toolCallId: string }).toolCallId)).toEqual(["c1"]);
  });
});

describe("bad input", () => {
  it("skips an item without a message or with an unknown role, with its path", () => {
    const parsed = parse(
      session([
        { message: { role: "user", content: "hi" }, contextItems: [] },
        { contextItems: [] },
        { message: { role: "robot", content: "x" }, contextItems: [] },
      ]),
    );
    expect(onlyThread(parsed).turns).toHaveLength(1);
    expect(parsed.skipped).toEqual([
      { path: "history[1]", reason: "not an object with a message" },
      { path: "history[2]", reason: 'message.role: "robot" is not user, assistant, thinking, system or tool' },
    ]);
  });

  it("refuses a document without a sessionId or a history list, and imports nothing from an empty one", () => {
    expect(() => parse({ title: "x", history: [] })).toThrow(ImportFormatError);
    expect(() => parse({ sessionId: "s", history: { timeline: [] } })).toThrow(/history is not a list/);
    const empty = parse(session([]));
    expect(empty.threads).toEqual([]);
    expect(empty.warnings[0]).toMatch(/no messages/);
  });

  it("turns workspace URIs into paths", () => {
    expect(workspacePath("file:///Users/me/my%20app")).toBe("/Users/me/my app");
    expect(workspacePath("file:///c%3A/work/app")).toBe("c:/work/app");
    expect(workspacePath("/home/me/app")).toBe("/home/me/app");
  });
});
