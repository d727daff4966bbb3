/**
 * Integration tests (real database) of the thread page's two indexes over a whole thread:
 * GET /api/threads/:id/outline (which turns are tool calls, errors, compactions, sub-agent spawns)
 * and GET /api/threads/:id/find (which turns match words, in the full-text index).
 */
import { describe, expect, it } from "vitest";
import { GET as findRoute } from "@/app/api/threads/[id]/find/route";
import { decodeOutline, type ThreadOutline } from "@/lib/domain/threads/turn-outline";
import { importFile } from "@/lib/imports/import-file";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { expectError, expireThread, newThread, newTurn } from "@/lib/testing/integration";
import { GET as outlineRoute } from "./route";

const outline = (id: string, query = "") => outlineRoute(jsonRequest("GET", `/api/threads/${id}/outline${query}`), params({ id }));
const find = (id: string, query: string) => findRoute(jsonRequest("GET", `/api/threads/${id}/find?${query}`), params({ id }));
const UNKNOWN = "0b9a2c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f";

type Found = { terms: string[]; indexes: number[]; capped: boolean };

/** user, a call, its failed result, a call that starts a sub-agent, its result, compaction, assistant, user. */
async function agentThread() {
  const thread = await newThread({ toolName: "outline" });
  await newTurn(thread.id, { role: "user", content: "Fix the flaky test" });
  await newTurn(thread.id, {
    role: "assistant",
    content: "Looking",
    parts: [
      { type: "text", text: "Looking" },
      { type: "tool_call", id: "call_read", name: "Read", arguments: { path: "a.ts" } },
    ],
  });
  // The result text quotes a failed call: only the part's own flag counts.
  await newTurn(thread.id, {
    role: "tool",
    content: "boom",
    parts: [{ type: "tool_result", toolCallId: "call_read", content: 'log: {"isError":true,"type":"tool_call"}', isError: true }],
  });
  await newTurn(thread.id, {
    role: "assistant",
    content: "",
    parts: [{ type: "tool_call", id: "call_agent", name: "Task", arguments: { description: "explore" } }],
  });
  await newTurn(thread.id, {
    role: "tool",
    content: "explored",
    parts: [{ type: "tool_result", toolCallId: "call_agent", content: 'quoting {"type":"tool_call"}', agentId: "agent-7" }],
  });
  await newTurn(thread.id, {
    role: "system",
    content: "Summary so far",
    parts: [{ type: "compaction", trigger: "auto", tokensBefore: 900, tokensAfter: 40 }],
  });
  await newTurn(thread.id, { role: "assistant", content: "Done: the zanzibar fixture was stale" });
  await newTurn(thread.id, { role: "user", content: "Thanks, and the zanzibar docs?" });
  return thread;
}

async function subagentOf(parentId: string, relation: Record<string, string>) {
  const child = await newThread({ toolName: "outline", parentThreadId: parentId });
  const { db } = await import("@/lib/db/engine/client");
  await (
    await db()
  ).thread.update({ where: { id: child.id }, data: { metadata: JSON.stringify({ relation: { kind: "subagent", ...relation } }) } });
}

describe("GET /api/threads/:id/outline", () => {
  it("lists each kind of turn without content, a sub-agent by the relation's tool-call id or by the agent id its result names", async () => {
    const thread = await agentThread();
    expect(decodeOutline(await json<ThreadOutline>(await outline(thread.id))).kinds.subagent).toEqual([]);
    await subagentOf(thread.id, { toolCallId: "call_read" });
    expect(decodeOutline(await json<ThreadOutline>(await outline(thread.id))).kinds.subagent).toEqual([1]);
    await subagentOf(thread.id, { agentId: "agent-7" });
    const response = await outline(thread.id);
    expect(response.status).toBe(200);
    const body = await json<ThreadOutline>(response);
    expect(JSON.stringify(body)).not.toContain("Fix the flaky test");
    expect(decodeOutline(body)).toEqual({
      turnCount: 8,
      kinds: {
        user: [0, 7],
        assistant: [1, 3, 6],
        system: [5],
        tool: [2, 4],
        toolCall: [1, 3],
        error: [2],
        compaction: [5],
        subagent: [1, 3],
      },
    });
  });

  it("stays small for a long thread: 5,000 turns in runs", async () => {
    const list = Array.from({ length: 5_000 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `line ${i}` }));
    const id = (await importFile("outline-long.json", JSON.stringify(list))).threadIds[0]!;
    const response = await outline(id);
    const text = await response.text();
    expect(text.length).toBeLessThan(500);
    const decoded = decodeOutline(JSON.parse(text) as ThreadOutline);
    expect(decoded.turnCount).toBe(5_000);
    expect(decoded.kinds.assistant).toHaveLength(2_500);
    expect(decoded.kinds.user.at(-1)).toBe(4_998);
  });

  it("names a bad parameter, answers an unknown thread 404, and an expired one only when asked", async () => {
    const thread = await agentThread();
    expect((await expectError(await outline(thread.id, "?includeExpired=maybe"), 400, "validation_failed")).message).toMatch(
      /^includeExpired:/,
    );
    await expectError(await outline(UNKNOWN), 404, "not_found");
    await expectError(await outline("nope"), 404, "not_found");
    await expireThread(thread.id);
    await expectError(await outline(thread.id), 404, "expired");
    expect((await outline(thread.id, "?includeExpired=1")).status).toBe(200);
  });
});

describe("GET /api/threads/:id/find", () => {
  it("answers the matching turns of this thread only, in order, every word as a prefix", async () => {
    const thread = await agentThread();
    const other = await newThread({ toolName: "outline" });
    await newTurn(other.id, { role: "user", content: "zanzibar elsewhere" });
    expect(await json<Found>(await find(thread.id, "q=zanzibar"))).toEqual({ terms: ["zanzibar"], indexes: [6, 7], capped: false });
    expect((await json<Found>(await find(thread.id, "q=ZANZ+docs"))).indexes).toEqual([7]);
    expect((await json<Found>(await find(thread.id, "q=nowhere"))).indexes).toEqual([]);
  });

  it("caps the list at limit and says there are more", async () => {
    const list = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `needle number ${i}` }));
    const id = (await importFile("find-many.json", JSON.stringify(list))).threadIds[0]!;
    expect(await json<Found>(await find(id, "q=needle&limit=10"))).toEqual({
      terms: ["needle"],
      indexes: [...Array(10).keys()],
      capped: true,
    });
    expect((await json<Found>(await find(id, "q=needle"))).indexes).toHaveLength(30);
  });

  it("names the bad parameter, and answers an unknown thread 404", async () => {
    const thread = await agentThread();
    expect((await expectError(await find(thread.id, ""), 400, "validation_failed")).message).toMatch(/^q:/);
    expect((await expectError(await find(thread.id, "q=%20%20"), 400, "validation_failed")).message).toMatch(/^q:/);
    expect((await expectError(await find(thread.id, "q=%3F%21"), 400, "validation_failed")).message).toMatch(
      /^q: must hold a letter or a digit/,
    );
    expect((await expectError(await find(thread.id, "q=a&limit=0"), 400, "validation_failed")).message).toMatch(/^limit:/);
    expect((await expectError(await find(thread.id, "q=a&limit=1001"), 400, "validation_failed")).message).toMatch(/^limit:/);
    await expectError(await find(UNKNOWN, "q=zanzibar"), 404, "not_found");
    await expireThread(thread.id);
    await expectError(await find(thread.id, "q=zanzibar"), 404, "expired");
    expect((await json<Found>(await find(thread.id, "q=zanzibar&includeExpired=1"))).indexes).toEqual([6, 7]);
  });
});
