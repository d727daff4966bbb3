/**
 * The real Cursor session of the shared fixtures (fixtures/real/cursor: toolpath's dump of a Cursor
 * 3.6 agent run, composerData _v 16, bubbles _v 3), as the database reader hands it over, checked
 * against an independent reading of the raw dump done here with plain JSON.parse: which bubbles
 * make which turns, the tool calls and the results Cursor keeps beside them, thinking, times,
 * title, folder and the task_v2 call's sub-agent.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCursorDump, type CursorDump } from "@/lib/testing/cursor-state";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { expectPaired, onlyThread, partsOf } from "../test-helpers";
import { parseCursorDocument, type CursorComposerDocument } from "./index";

const ROOT = path.join(process.cwd(), "fixtures/real/cursor/toolpath");
const FILES = someFixtures(
  readdirSync(ROOT)
    .filter((name) => name.endsWith(".json.txt"))
    .map((name) => path.join(ROOT, name)),
  ROOT,
);

type Raw = any;

/** The document lib/imports/cursor-database.ts reads from the rows the dump came from. */
function documentOf(dump: CursorDump): CursorComposerDocument {
  const { workspaceIdentifier, name, createdAt, lastUpdatedAt } = dump.head as Raw;
  return {
    cursor: "composer",
    composerId: dump.data.composerId,
    composer: dump.data as Raw,
    bubbles: Object.fromEntries(dump.bubbles.map((b) => [b.bubbleId, b])) as Raw,
    head: { workspaceIdentifier, name, createdAt, lastUpdatedAt },
  };
}

/** What the raw dump says: bubbles in header order, which are prompts, texts, thinking, tool calls. */
function expected(dump: CursorDump) {
  const byId = new Map(dump.bubbles.map((b: Raw) => [b.bubbleId, b]));
  const ordered = (dump.data.fullConversationHeadersOnly as Raw[]).map((h) => byId.get(h.bubbleId)).filter(Boolean) as Raw[];
  const tools = ordered.filter((b) => b.toolFormerData);
  return {
    ordered,
    prompts: ordered.filter((b) => b.type === 1).map((b) => b.text),
    texts: ordered.filter((b) => b.type === 2 && b.text).map((b) => b.text),
    thinking: ordered.filter((b) => b.thinking?.text).map((b) => b.thinking.text),
    calls: tools.map((b) => ({ id: b.toolFormerData.toolCallId, name: b.toolFormerData.name, args: JSON.parse(b.toolFormerData.params) })),
    results: tools.map((b) => ({
      id: b.toolFormerData.toolCallId,
      error: b.toolFormerData.status === "error",
      result: b.toolFormerData.result ? JSON.parse(b.toolFormerData.result) : null,
    })),
    task: tools.find((b) => b.toolFormerData.name === "task_v2")?.toolFormerData,
  };
}

describe.each(FILES.map((file) => [path.basename(file), file] as const))("real Cursor dump %s", (_name, file) => {
  const dump = readCursorDump(file);
  const raw = expected(dump);
  const thread = onlyThread(parseCursorDocument(documentOf(dump), { name: file }));

  it("makes a turn of every bubble its headers list, in their order, and a tool turn after each call", () => {
    expect(raw.ordered.length).toBeGreaterThan(20);
    const keys = raw.ordered.flatMap((b) => (b.toolFormerData ? [b.bubbleId, `${b.bubbleId}:result`] : [b.bubbleId]));
    expect(thread.turns.map((t) => t.key)).toEqual(keys);
    expect(thread.turns.filter((t) => t.role === "user").map((t) => t.content)).toEqual(raw.prompts);
    const answers = thread.turns.filter((t) => t.role === "assistant").flatMap((t) => t.parts ?? []);
    expect(answers.flatMap((p) => (p.type === "text" ? [p.text] : []))).toEqual(raw.texts);
    expect(partsOf(thread, "thinking").map((p) => p.text)).toEqual(raw.thinking);
    expect(thread.turns.map((t) => t.timestamp)).toEqual(
      raw.ordered
        .flatMap((b) => (b.toolFormerData ? [b.createdAt, b.createdAt] : [b.createdAt]))
        .map((at: string) => new Date(at).toISOString()),
    );
  });

  it("pairs every tool call with the result Cursor keeps in its bubble, errors marked", () => {
    expect(expectPaired(thread)).toBe(raw.calls.length);
    expect(
      partsOf(thread, "tool_call").map((p) => (p.type === "tool_call" ? { id: p.id, name: p.name, args: p.arguments } : null)),
    ).toEqual(raw.calls);
    const results = partsOf(thread, "tool_result").map((p) => (p.type === "tool_result" ? { id: p.toolCallId, error: p.isError } : null));
    expect(results).toEqual(raw.results.map(({ id, error }) => ({ id, error })));
    for (const { id, result } of raw.results.filter((r) => r.result !== null))
      expect(partsOf(thread, "tool_result").find((p) => p.type === "tool_result" && p.toolCallId === id)).toMatchObject({
        content: result,
      });
  });

  it("names the sub-agent its task call started, and takes title, folder and model from the composer", () => {
    expect(raw.task).toBeDefined();
    const child = raw.task.additionalData.subagentComposerId;
    expect((dump.data as Raw).subagentComposerIds).toContain(child);
    expect(partsOf(thread, "tool_result").find((p) => p.type === "tool_result" && p.toolCallId === raw.task.toolCallId)).toMatchObject({
      agentId: child,
    });
    expect(thread).toMatchObject({
      key: dump.data.composerId,
      title: dump.data.name,
      project: (dump.head as Raw).workspaceIdentifier.uri.fsPath,
      createdAt: new Date(dump.data.createdAt as number).toISOString(),
    });
    // Cursor left every token count of this session at zero: no usage is made up.
    expect(raw.ordered.every((b) => b.tokenCount.inputTokens === 0 && b.tokenCount.outputTokens === 0)).toBe(true);
    expect(thread.turns.filter((t) => t.usage)).toEqual([]);
    const models = new Set(thread.turns.filter((t) => t.role === "assistant").map((t) => t.modelName));
    expect([...models]).toEqual([raw.ordered[0].modelInfo.modelName]);
  });
});
