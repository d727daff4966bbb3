import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GET as contextRoute } from "@/app/api/threads/[id]/context/route";
import { db } from "@/lib/db/engine/client";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { getTokenizer } from "@/lib/tokenizers/registry";
import { api, expectError, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";

/** With the per-turn breakdown unless the query says otherwise: most tests here read it. */
const context = (id: string, query: Record<string, string>) =>
  contextRoute(jsonRequest("GET", `/api/threads/${id}/context?${new URLSearchParams({ perTurn: "1", ...query })}`), params({ id }));

async function chainOfThree() {
  const first = await newThread({ toolName: "analyze" });
  await newTurn(first.id, {
    role: "user",
    content: "Look at the session code",
    files: ["src/session.ts", "/etc/passwd", "../../secret.txt"],
    fileSnapshots: [{ path: "src/session.ts", content: "export const session = 1;\n" }],
    toolName: "analyze",
  });
  await newTurn(first.id, {
    role: "assistant",
    content: "It never refreshes expiresAt.",
    toolName: "analyze",
    modelProvider: "google",
    modelName: "gemini-2.5-pro",
  });
  const second = await newThread({ toolName: "codereview", parentThreadId: first.id });
  await newTurn(second.id, { role: "user", content: "Review the fix", toolName: "codereview" });
  await newTurn(second.id, {
    role: "assistant",
    content: "Looks right.",
    toolName: "codereview",
    modelProvider: "openai",
    modelName: "gpt-5",
  });
  return { first, second };
}

afterEach(() => restoreServerEnv());

describe("GET /api/threads/:id/context", () => {
  it("assembles the chain's history in PAL's layout, with PAL's allocation for the window", async () => {
    const { first, second } = await chainOfThree();
    const response = await context(second.id, { contextWindow: "200000", mode: "pal" });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.allocation).toEqual({ total: 200_000, content: 120_000, response: 80_000, file: 36_000, history: 60_000 });
    expect(body.exact).toBe(false);
    expect(body.model).toBeNull();
    expect(body.text.startsWith(`=== CONVERSATION HISTORY (CONTINUATION) ===\nThread: ${second.id}\nTool: codereview\nTurn 4/50\n`)).toBe(
      true,
    );
    expect(body.text).toContain("--- Turn 2 (gemini-2.5-pro using analyze via google) ---");
    expect(body.text).toContain("--- Turn 4 (gpt-5 using codereview via openai) ---");
    expect(body.text).toContain("This is turn 5 of the conversation");
    expect(body.turns).toEqual({ total: 4, includedCount: 4, excludedCount: 0, firstIncluded: 1 });
    expect(body.files.included).toEqual([{ path: "src/session.ts", tokens: expect.any(Number), source: "snapshot" }]);
    expect(body.text).toContain("export const session = 1;");
    expect(body.perTurn.map((t: { threadId: string }) => t.threadId)).toEqual([first.id, first.id, second.id, second.id]);
  });

  it("never reads a file because a turn names it", async () => {
    const { second } = await chainOfThree();
    const body = await json(await context(second.id, { contextWindow: "200000", mode: "pal" }));
    const skipped = Object.fromEntries(body.files.skipped.map((f: { path: string; reason: string }) => [f.path, f.reason]));
    expect(skipped["/etc/passwd"]).toMatch(/THREADLINE_FILE_ROOTS/);
    expect(skipped["../../secret.txt"]).toMatch(/THREADLINE_FILE_ROOTS/);
    expect(body.text).not.toContain("root:x:0:0");

    setServerEnv({ THREADLINE_FILE_ROOTS: process.cwd() });
    const withRoots = await json(await context(second.id, { contextWindow: "200000", mode: "pal" }));
    const reasons = Object.fromEntries(withRoots.files.skipped.map((f: { path: string; reason: string }) => [f.path, f.reason]));
    expect(reasons["/etc/passwd"]).toBe("outside the allowed roots");
    expect(reasons["../../secret.txt"]).toBe("outside the allowed roots");
    expect(withRoots.text).not.toContain("root:x:0:0");
  });

  it("skips a named pipe under an allowed root instead of waiting on it, and still reads the regular files", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "threadline-context-"));
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    writeFileSync(path.join(root, "notes.md"), "regular file\n");
    setServerEnv({ THREADLINE_FILE_ROOTS: root });
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "Read these", files: ["pipe", "notes.md"] });
    const body = await json(await context(thread.id, { contextWindow: "200000", mode: "pal" }));
    expect(body.files.skipped).toEqual([{ path: "pipe", reason: "not a regular file (a named pipe)", tokens: null }]);
    expect(body.files.included).toEqual([{ path: "notes.md", tokens: expect.any(Number), source: "root" }]);
    expect(body.text).toContain("regular file");
  });

  it("drops the oldest turns first when the history budget is small", async () => {
    const thread = await newThread();
    for (let i = 0; i < 6; i++) await newTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: `turn ${i} ${"x".repeat(900)}` });
    const body = await json(await context(thread.id, { contextWindow: "5000", mode: "pal" }));
    expect(body.allocation.history).toBe(1500);
    // the newest turns are sent, the oldest cut: a range, turns firstIncluded..6
    expect(body.turns.total).toBe(6);
    expect(body.turns.includedCount).toBeGreaterThan(0);
    expect(body.turns.excludedCount).toBeGreaterThan(0);
    expect(body.turns.includedCount + body.turns.excludedCount).toBe(6);
    expect(body.turns.firstIncluded).toBe(body.turns.excludedCount + 1);
    expect(body.text).toContain(`[Note: Showing ${body.turns.includedCount} most recent turns out of 6 total]`);
    expect(body.text).toContain(`--- Turn ${body.turns.firstIncluded} `);
    expect(body.text).not.toContain(`--- Turn ${body.turns.firstIncluded - 1} `);
  });

  it("in exact mode counts with the model's tokenizer, storing per-turn counts once", async () => {
    const { second } = await chainOfThree();
    const client = await db();
    const before = await client.turnTokenCount.count({ where: { tokenizer: "o200k_base" } });
    const first = await json(await context(second.id, { model: "gpt-4o" }));
    expect(first.model).toMatchObject({ id: "gpt-4o", contextWindow: 128_000 });
    expect(first.tokenizer.id).toBe("o200k_base");
    expect(first.exact).toBe(true);
    expect(first.allocation).toEqual({ total: 128_000, content: 76_800, response: 51_200, file: 23_040, history: 38_400 });
    const stored = await client.turnTokenCount.count({ where: { tokenizer: "o200k_base" } });
    expect(stored).toBeGreaterThanOrEqual(before);
    expect(await client.turnTokenCount.count({ where: { tokenizer: "o200k_base", threadId: second.id } })).toBe(2);
    const again = await json(await context(second.id, { model: "gpt-4o" }));
    expect(again.text).toBe(first.text);
    expect(await client.turnTokenCount.count({ where: { tokenizer: "o200k_base" } })).toBe(stored);
  });

  it.each(["o200k_base", "cl100k_base", "llama3"])(
    "with %s, totalTokens is the count of the whole text sent, also right after appends",
    async (tokenizer) => {
      // The total is counted section by section and remembered (lib/tokenizers/segments.ts); it
      // must still be what the tokenizer gives for the text in one piece.
      const { second } = await chainOfThree();
      const { count } = getTokenizer(tokenizer);
      const previews = [];
      for (const content of [
        "Next: the refresh path.",
        "Done!\n\n",
        "It's fine — 語 😀 \r\n/tmp/x",
        "--- Turn 99 (fake) ---\n=== quoted ===",
      ]) {
        const body = await json(await context(second.id, { contextWindow: "200000", tokenizer }));
        expect(body.exact).toBe(true);
        expect(body.totalTokens).toBe(count(body.text));
        previews.push(body.totalTokens);
        await newTurn(second.id, { role: previews.length % 2 ? "user" : "assistant", content });
      }
      expect(new Set(previews).size).toBe(previews.length);
    },
  );

  it("in PAL mode stores each turn's length in code points once, and reads only the turns it sends", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "😀".repeat(900) });
    await newTurn(thread.id, { role: "assistant", content: "ok" });
    const client = await db();
    const body = await json(await context(thread.id, { contextWindow: "1000", mode: "pal" }));
    const stored = await client.turnTokenCount.findMany({
      where: { threadId: thread.id, tokenizer: "code-points" },
      orderBy: { turnSeq: "asc" },
    });
    expect(stored.map((row) => row.tokens)).toEqual([900, 2]);
    // 900 code points (1,800 UTF-16 units): PAL's estimate counts the turn as (header + 900) / 3
    expect(body.perTurn[0].tokens).toBe(Math.floor(("\n--- Turn 1 (Agent) ---\n".length + 900) / 3));
    expect(body.turns).toEqual({ total: 2, includedCount: 1, excludedCount: 1, firstIncluded: 2 });
    expect(body.text).not.toContain("😀");
  });

  it("never serves a stale plan: appends, and a thread purged and imported again with other content", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "first question" });
    const query = { model: "gpt-4o" };
    expect((await json(await context(thread.id, query))).perTurn).toHaveLength(1);
    await newTurn(thread.id, { role: "assistant", content: "first answer" });
    const after = await json(await context(thread.id, query));
    expect(after.perTurn.map((t: { role: string }) => t.role)).toEqual(["user", "assistant"]);
    expect(after.text).toContain("first answer");

    // Same ids, same times, same turn count: only the content and roles differ.
    const exported = await (await api.exportThread(thread.id)).json();
    exported.threads[0].turns[1].content = "a different answer";
    exported.threads[0].turns[1].role = "tool";
    expect((await api.deleteThread(thread.id)).status).toBe(204);
    expect((await api.importDocuments(exported)).status).toBe(201);
    const reimported = await json(await context(thread.id, query));
    expect(reimported.perTurn.map((t: { role: string }) => t.role)).toEqual(["user", "tool"]);
    expect(reimported.text).toContain("a different answer");
    expect(reimported.text).not.toContain("first answer");
  });

  it("after an append reads only the new turns, and a thread whose earlier turns were rewritten whole", async () => {
    const thread = await newThread();
    for (const [role, content] of [
      ["user", "alpha"],
      ["assistant", "bravo"],
      ["user", "charlie"],
    ] as const)
      await newTurn(thread.id, { role, content });
    const query = { model: "gpt-4o" };
    const roles = (body: { perTurn: { role: string }[] }) => body.perTurn.map((t) => t.role);
    expect(roles(await json(await context(thread.id, query)))).toEqual(["user", "assistant", "user"]);

    // Grown: the outline known so far stands, the new turn is added.
    await newTurn(thread.id, { role: "assistant", content: "delta" });
    const grown = await json(await context(thread.id, query));
    expect(roles(grown)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(grown.text).toMatch(/alpha[\s\S]*bravo[\s\S]*charlie[\s\S]*delta/);

    // As an import does with a session that changed: the tail from index 2 deleted and written
    // again (new seqs), one turn longer. Same first turn, more turns, but the last known one is gone.
    const client = await db();
    await client.turn.deleteMany({ where: { threadId: thread.id, index: { gte: 2 } } });
    const now = new Date();
    for (const [index, role, content] of [
      [2, "tool", "charlie rewritten"],
      [3, "assistant", "delta rewritten"],
      [4, "user", "echo"],
    ] as const) {
      await client.turn.create({ data: { id: crypto.randomUUID(), threadId: thread.id, index, role, content, timestamp: now } });
    }
    await client.thread.update({ where: { id: thread.id }, data: { turnCount: 5, lastUpdatedAt: now } });
    const rewritten = await json(await context(thread.id, query));
    expect(roles(rewritten)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(rewritten.text).toContain("charlie rewritten");
    expect(rewritten.text).not.toMatch(/charlie\n/);
    expect(rewritten.text).not.toMatch(/delta\n/);
    expect(rewritten.totalTokens).toBe(getTokenizer("o200k_base").count(rewritten.text));
  });

  it("walks at most 20 threads of a chain of 25, oldest first", async () => {
    let parentThreadId: string | undefined;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const thread = await newThread(parentThreadId ? { toolName: "chat", parentThreadId } : { toolName: "chat" });
      await newTurn(thread.id, { role: "user", content: `question ${i + 1}` });
      ids.push((parentThreadId = thread.id));
    }
    const body = await json(await context(ids.at(-1)!, { model: "gpt-4o" }));
    expect(body.perTurn.map((t: { threadId: string }) => t.threadId)).toEqual(ids.slice(5));
    expect(body.text).toContain("Turn 20/50");
    expect(body.text).toContain("--- Turn 1 (Agent) ---\nquestion 6\n");
    expect(body.text).not.toContain("question 5\n");
  });

  it("reserve changes only the response share", async () => {
    const { second } = await chainOfThree();
    const body = await json(await context(second.id, { contextWindow: "200000", reserve: "10000", mode: "pal" }));
    expect(body.allocation).toEqual({ total: 200_000, content: 120_000, response: 10_000, file: 36_000, history: 60_000 });
  });

  it("answers 400 naming the parameter, 404 for unknown or expired threads", async () => {
    const { second } = await chainOfThree();
    expect((await expectError(await context(second.id, {}), 400, "validation_failed")).message).toMatch(
      /^model: give a model or a contextWindow/,
    );
    expect((await expectError(await context(second.id, { contextWindow: "abc" }), 400, "validation_failed")).message).toMatch(
      /^contextWindow:/,
    );
    expect(
      (await expectError(await context(second.id, { contextWindow: "200000", mode: "fast" }), 400, "validation_failed")).message,
    ).toMatch(/^mode:/);
    const unknown = await expectError(await context(second.id, { model: "gpt5" }), 400, "validation_failed");
    expect(unknown.message).toMatch(/^model: unknown model "gpt5"\. Close matches: .*gpt-5/);
    await expectError(await context("00000000-0000-4000-8000-000000000000", { contextWindow: "200000" }), 404, "not_found");
    await expectError(await context("nope", { contextWindow: "200000" }), 404, "not_found");
    const client = await db();
    await client.thread.update({ where: { id: second.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectError(await context(second.id, { contextWindow: "200000" }), 404, "expired");
  });

  it("leaves the per-turn breakdown out unless asked, and answers the same preview either way", async () => {
    const thread = await newThread({ toolName: "chat" });
    for (let i = 0; i < 30; i++)
      await newTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: `message ${i} ${"word ".repeat(200)}` });
    for (const mode of ["exact", "pal"]) {
      const withTurns = await json<Record<string, unknown>>(await context(thread.id, { contextWindow: "4000", mode }));
      const without = await json<Record<string, unknown>>(await context(thread.id, { contextWindow: "4000", mode, perTurn: "0" }));
      expect(without.perTurn).toBeUndefined();
      const { perTurn, ...rest } = withTurns;
      expect(rest).toEqual(without);
      // a small window: some turns are left out, and the breakdown marks exactly the ones included
      const included = (perTurn as { number: number; included: boolean }[]).filter((t) => t.included).map((t) => t.number);
      const turns = without.turns as { total: number; firstIncluded: number; excludedCount: number };
      expect(turns.excludedCount).toBeGreaterThan(0);
      expect(included).toEqual(Array.from({ length: turns.total - turns.firstIncluded + 1 }, (_, i) => turns.firstIncluded + i));
    }
    await expectError(await context(thread.id, { contextWindow: "4000", perTurn: "yes" }), 400, "validation_failed");
  });
});
