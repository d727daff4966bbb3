/** POST /api/threads/:id/continue on a real SQLite file: PAL's continuation, made durable. */
import { afterEach, describe, expect, it } from "vitest";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { expectError, fetchThread, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { POST } from "./route";

const post = (id: string, body: unknown) => POST(jsonRequest("POST", `/api/threads/${id}/continue`, body), params({ id }));

afterEach(() => restoreServerEnv());

describe("POST /api/threads/:id/continue", () => {
  it("stores the prompt as a user turn and answers the chain's history budgeted for the model", async () => {
    const parent = await newThread({ toolName: "analyze" });
    await newTurn(parent.id, { role: "user", content: "Why do sessions drop?" });
    await newTurn(parent.id, { role: "assistant", content: "The expiry is not refreshed.", modelName: "gpt-4o" });
    const thread = await newThread({ toolName: "debug", parentThreadId: parent.id });
    await newTurn(thread.id, { role: "assistant", content: "Reproduced it.", modelName: "gpt-4o" });

    const response = await post(thread.id, {
      toolName: "codereview",
      prompt: "Review the fix in src/auth/session.ts",
      files: ["src/auth/session.ts"],
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const body = await json<{
      turn: { index: number; role: string; toolName: string; files: string[] };
      model: string;
      history: string;
      historyTokens: number;
      remainingTokens: number;
    }>(response);
    expect(body.turn).toMatchObject({ index: 1, role: "user", toolName: "codereview", files: ["src/auth/session.ts"] });
    expect(body.model).toBe("gpt-4o"); // the thread's last model
    for (const text of ["Why do sessions drop?", "The expiry is not refreshed.", "Reproduced it.", "Review the fix in src/auth/session.ts"])
      expect(body.history).toContain(text);
    expect(body.historyTokens).toBeGreaterThan(10);
    // gpt-4o's 128k window, less PAL's reserve for the answer, less this history.
    expect(body.remainingTokens).toBeGreaterThan(50_000);
    expect(body.remainingTokens + body.historyTokens).toBeLessThan(128_000);
    expect((await fetchThread(thread.id)).thread.turnCount).toBe(2);
  });

  it("answers 404 naming the timeout in effect for an expired thread, 409 at the turn limit, 400 for a bad body", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "2" });
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: "one" });
    await expectError(await post(thread.id, { toolName: "chat", prompt: "" }), 400, "validation_failed");
    await expectError(await post(thread.id, { prompt: "x" }), 400, "validation_failed");
    await expectError(await post(thread.id, { toolName: "chat", prompt: "x", model: "no-such-model" }), 400, "validation_failed");
    expect((await fetchThread(thread.id)).thread.turnCount).toBe(1); // refused requests store nothing
    expect((await post(thread.id, { toolName: "chat", prompt: "two" })).status).toBe(201);
    await expectError(await post(thread.id, { toolName: "chat", prompt: "three" }), 409, "turn_limit");
    const missing = await expectError(
      await post("3f1c2e4a-1111-4222-8333-444455556666", { toolName: "chat", prompt: "x" }),
      404,
      "not_found",
    );
    expect(missing.message).toMatch(/not found/);
  });
});
