/**
 * Integration test (real database) of GET /api/threads/:id/handoff: a thread and a chain handed
 * over as the orchestrator seed's conversation_history. Expected texts are written out here from
 * the seed's rules, not computed by the code under test.
 */
import { describe, expect, it } from "vitest";
import { GET as handoffRoute } from "@/app/api/threads/[id]/handoff/route";
import type { HandoffAnswer } from "@/lib/domain/history/handoff";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { expectError, newThread, newTurn } from "@/lib/testing/integration";
import { getTokenizer } from "@/lib/tokenizers/registry";

const handoff = (id: string, query: Record<string, string> = {}) =>
  handoffRoute(jsonRequest("GET", `/api/threads/${id}/handoff?${new URLSearchParams(query)}`), params({ id }));

const HEADING = "\n💬 CONVERSATION HISTORY (Context leading to this task):\n";

async function chainOfTwo() {
  const first = await newThread({ toolName: "analyze" });
  await newTurn(first.id, { role: "system", content: "You review code.\nBe brief." });
  await newTurn(first.id, { role: "user", content: `  ${"Why does login fail? ".repeat(10)}  ` });
  await newTurn(first.id, {
    role: "assistant",
    content: "Token refresh rejects valid tokens.",
    modelProvider: "openai",
    modelName: "gpt-4o",
  });
  const second = await newThread({ toolName: "codereview", parentThreadId: first.id });
  await newTurn(second.id, { role: "tool", content: "grep: 3 matches" });
  await newTurn(second.id, { role: "assistant", content: `${"x".repeat(8191)}😀😀` });
  return { first, second };
}

describe("GET /api/threads/:id/handoff", () => {
  it("hands over one thread as the seed's section, byte for byte", async () => {
    const { first } = await chainOfTwo();
    const response = await handoff(first.id, { format: "orchestrator" });
    expect(response.status).toBe(200);
    const body = await json<HandoffAnswer>(response);
    const user = "Why does login fail? ".repeat(10).trim();
    expect(user.length).toBe(209);
    expect(body.text).toBe(
      `${HEADING}1. 🤖 SYSTEM:\n   You review code.\nBe brief.\n\n` +
        `2. 👤 USER [TRUNCATED]:\n   ${user.slice(0, 150)}... [truncated]\n\n` +
        "3. 🤖 ASSISTANT:\n   Token refresh rejects valid tokens.\n\n",
    );
    expect(body.messages.map((m) => [m.role, m.truncated])).toEqual([
      ["system", false],
      ["user", true],
      ["assistant", false],
    ]);
    expect(body).toMatchObject({
      format: "orchestrator",
      conversationMessagesCount: 3,
      skipped: [],
      range: { from: 1, to: 3, total: 3 },
      cut: { messages: 1, characters: 59 },
    });
    expect(body.origins).toEqual([0, 1, 2].map((turnIndex) => ({ threadId: first.id, turnIndex })));
  });

  it("hands over the whole chain oldest first with chain=1, skipping tool turns, and cuts at a code point", async () => {
    const { first, second } = await chainOfTwo();
    const alone = await json<HandoffAnswer>(await handoff(second.id));
    expect(alone.skipped).toEqual([
      {
        index: 0,
        reason: "conversation_history[0] has invalid role 'tool', skipping",
        cause: { kind: "role", role: "tool" },
        threadId: second.id,
        turnIndex: 0,
      },
    ]);
    expect(alone.messages).toEqual([{ role: "assistant", content: `${"x".repeat(8191)}😀... [truncated at 8192 chars]`, truncated: true }]);

    const chain = await json<HandoffAnswer>(await handoff(second.id, { chain: "1" }));
    expect(chain.range).toEqual({ from: 1, to: 5, total: 5 });
    expect(chain.conversationMessagesCount).toBe(4);
    expect(chain.origins.map((o) => o.threadId)).toEqual([first.id, first.id, first.id, second.id]);
    expect(chain.skipped).toEqual([
      {
        index: 3,
        reason: "conversation_history[3] has invalid role 'tool', skipping",
        cause: { kind: "role", role: "tool" },
        threadId: second.id,
        turnIndex: 0,
      },
    ]);
    expect(chain.text.endsWith(`4. 🤖 ASSISTANT [TRUNCATED]:\n   ${"x".repeat(8191)}😀... [truncated at 8192 chars]\n\n`)).toBe(true);

    // from/to pick 1-based positions of the chain's turns; indexes of skipped ones count within them.
    const middle = await json<HandoffAnswer>(await handoff(second.id, { chain: "1", from: "3", to: "4" }));
    expect(middle.range).toEqual({ from: 3, to: 4, total: 5 });
    expect(middle.messages.map((m) => m.role)).toEqual(["assistant"]);
    expect(middle.skipped).toEqual([
      {
        index: 1,
        reason: "conversation_history[1] has invalid role 'tool', skipping",
        cause: { kind: "role", role: "tool" },
        threadId: second.id,
        turnIndex: 0,
      },
    ]);
  });

  it("counts the text with the model's tokenizer when asked", async () => {
    const { first } = await chainOfTwo();
    const body = await json<HandoffAnswer>(await handoff(first.id, { model: "gpt-4o" }));
    expect(body.tokens).toEqual({ tokenizer: "o200k_base", count: getTokenizer("o200k_base").count(body.text), exact: true });
  });

  it("masks a secret before cutting, so no half of one is left at the cut", async () => {
    const thread = await newThread({ toolName: "chat" });
    const key = `sk-proj-${"A1b2C3d4E5".repeat(8)}`;
    // One whole within the 150 characters kept, one across the cut: neither shows, not even in part.
    await newTurn(thread.id, { role: "user", content: `see ${key} please` });
    await newTurn(thread.id, { role: "user", content: `${"p".repeat(120)} ${key} and more` });
    const body = await json<HandoffAnswer>(await handoff(thread.id));
    expect(body.messages[0]!.content.length).toBeLessThan(150);
    expect(body.messages[0]!.content).not.toContain(key.slice(0, 16));
    expect(body.messages[1]!.content).not.toContain(key.slice(0, 16));
    expect(body.text).not.toContain(key.slice(0, 16));
  });

  it("refuses bad parameters with 400 naming them, and an unknown thread with 404", async () => {
    const { first } = await chainOfTwo();
    expect((await expectError(await handoff(first.id, { format: "pal" }), 400, "validation_failed")).message).toMatch(/format/);
    expect((await expectError(await handoff(first.id, { from: "0" }), 400, "validation_failed")).message).toMatch(/from/);
    expect((await expectError(await handoff(first.id, { from: "3", to: "2" }), 400, "validation_failed")).message).toMatch(
      /to: must be at least from/,
    );
    expect((await expectError(await handoff(first.id, { to: "9" }), 400, "validation_failed")).message).toMatch(/to: must be at most 3/);
    expect((await expectError(await handoff(first.id, { chian: "1" }), 400, "validation_failed")).message).toMatch(/chian/);
    expect((await expectError(await handoff(first.id, { model: "gpt-17" }), 400, "validation_failed")).message).toMatch(
      /unknown model "gpt-17"/,
    );
    await expectError(await handoff("00000000-0000-4000-8000-000000000000"), 404, "not_found");
  });

  it("answers an empty section for a thread without turns", async () => {
    const thread = await newThread({ toolName: "chat" });
    expect(await json<HandoffAnswer>(await handoff(thread.id))).toMatchObject({
      text: "",
      messages: [],
      conversationMessagesCount: 0,
      range: { from: 0, to: 0, total: 0 },
    });
  });
});
