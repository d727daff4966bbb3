/**
 * Forks through the API on the test file's real SQLite database: the fork holds copies of the
 * source's turns 0..atTurn and reads as a whole thread everywhere; the source is never written.
 */
import { describe, expect, it } from "vitest";
import { GET as contextGet } from "@/app/api/threads/[id]/context/route";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { api, expectError, fetchThread, newThread, newTurn } from "@/lib/testing/integration";
import { GET as forksGet, POST as forksPost } from "./route";

const fork = (id: string, body: unknown) => forksPost(jsonRequest("POST", `/api/threads/${id}/forks`, body), params({ id }));
const links = (id: string) => forksGet(jsonRequest("GET", `/api/threads/${id}/forks`), params({ id }));

async function seed(): Promise<string> {
  const parent = await newThread({ toolName: "analyze", title: "The analysis" });
  await newTurn(parent.id, { role: "user", content: "Analyse src/auth/session.ts" });
  const thread = await newThread({ toolName: "debug", title: "Refresh 401", parentThreadId: parent.id });
  await newTurn(thread.id, {
    role: "user",
    content: "Login fails after refresh",
    files: ["src/auth/session.ts"],
    fileSnapshots: [{ path: "src/auth/session.ts", content: "export const x = 1;" }],
  });
  await newTurn(thread.id, {
    role: "assistant",
    content: "Reading it.",
    modelProvider: "openai",
    modelName: "gpt-4o",
    parts: [
      { type: "text", text: "Reading it." },
      { type: "tool_call", id: "c1", name: "read_file", arguments: { path: "src/auth/session.ts" } },
    ],
  });
  await newTurn(thread.id, {
    role: "tool",
    content: "export const x = 1;",
    toolName: "read_file",
    parts: [{ type: "tool_result", toolCallId: "c1", content: "export const x = 1;" }],
  });
  await newTurn(thread.id, { role: "assistant", content: "Fixed.", modelProvider: "anthropic", modelName: "claude-sonnet-4-5" });
  return thread.id;
}

describe("POST /api/threads/:id/forks", () => {
  it("copies turns 0..atTurn with their attribution, parts and snapshots; the source exports as before", async () => {
    const id = await seed();
    const exported = await (await api.exportThread(id)).text();
    const response = await fork(id, { atTurn: 2 });
    expect(response.status, await response.clone().text()).toBe(201);
    const { thread, fork: record } = await json<{
      thread: { id: string; title: string; source: string; parentThreadId: string; turnCount: number };
      fork: { sourceThreadId: string; atTurn: number };
    }>(response);
    const source = await fetchThread(id);
    expect(thread).toMatchObject({
      title: "Refresh 401 (fork)",
      source: "fork",
      parentThreadId: source.thread.parentThreadId,
      turnCount: 3,
    });
    expect(record).toMatchObject({ sourceThreadId: id, atTurn: 2 });

    const copy = await fetchThread(thread.id);
    const fields = (t: (typeof copy.turns)[number]) => ({
      index: t.index,
      role: t.role,
      content: t.content,
      parts: t.parts,
      toolName: t.toolName,
      modelName: t.modelName,
      modelProvider: t.modelProvider,
      files: t.files,
      timestamp: t.timestamp,
    });
    expect(copy.turns.map(fields)).toEqual(source.turns.slice(0, 3).map(fields));
    expect(copy.thread.modelsUsed).toEqual(["gpt-4o"]);
    expect(copy.thread.tokens?.count).toBe(source.turns.slice(0, 3).reduce((n, t) => n + (t.tokens ?? 0), 0));
    expect(await (await api.exportThread(id)).text()).toBe(exported);

    // It reads as a whole thread: its chain has the source's ancestors, its export its own turns,
    // and a budget preview embeds the copied file snapshot.
    const chain = await json<{ threads: { id: string }[] }>(await api.chain(thread.id));
    expect(chain.threads.map((t) => t.id)).toEqual([source.thread.parentThreadId, thread.id]);
    const document = JSON.parse(await (await api.exportThread(thread.id)).text()) as { threads: { turns: unknown[] }[] };
    expect(document.threads[0]!.turns).toHaveLength(3);
    const preview = await json<{ files: { included: { path: string; source: string }[] } }>(
      await contextGet(jsonRequest("GET", `/api/threads/${thread.id}/context?model=gpt-4o`), params({ id: thread.id })),
    );
    expect(preview.files.included).toEqual([expect.objectContaining({ path: "src/auth/session.ts", source: "snapshot" })]);

    // Lineage both ways; deleting the fork leaves the source as it was.
    expect((await json<{ forks: { forkThreadId: string; atTurn: number }[] }>(await links(id))).forks).toEqual([
      expect.objectContaining({ forkThreadId: thread.id, atTurn: 2 }),
    ]);
    expect(
      (await json<{ forkedFrom: { sourceThreadId: string; sourceExists: boolean } }>(await links(thread.id))).forkedFrom,
    ).toMatchObject({ sourceThreadId: id, sourceExists: true });
    expect((await api.deleteThread(thread.id)).status).toBe(204);
    expect((await json<{ forks: unknown[] }>(await links(id))).forks).toEqual([]);
    expect(await (await api.exportThread(id)).text()).toBe(exported);
  });

  it("forks at the last turn into a full copy, and at turn 0 into one turn", async () => {
    const id = await seed();
    expect((await json<{ thread: { turnCount: number } }>(await fork(id, { atTurn: 3 }))).thread.turnCount).toBe(4);
    expect((await json<{ thread: { turnCount: number } }>(await fork(id, { atTurn: 0 }))).thread.turnCount).toBe(1);
  });

  it("answers 400 naming atTurn when it is missing, negative, not a whole number or past the end, and 404 for unknown threads", async () => {
    const id = await seed();
    expect((await expectError(await fork(id, {}), 400, "validation_failed")).message).toMatch(/^atTurn: /);
    expect((await expectError(await fork(id, { atTurn: -1 }), 400, "validation_failed")).message).toMatch(/^atTurn: must be at least 0/);
    expect((await expectError(await fork(id, { atTurn: 1.5 }), 400, "validation_failed")).message).toMatch(
      /^atTurn: must be a whole number/,
    );
    expect((await expectError(await fork(id, { atTurn: "2" }), 400, "validation_failed")).message).toMatch(/^atTurn: must be a number/);
    expect((await expectError(await fork(id, { atTurn: 4 }), 400, "validation_failed")).message).toMatch(
      /^atTurn: thread .* has 4 turns \(turns are 0-3\); got 4/,
    );
    await expectError(await fork(id, { atTurn: 1, extra: true }), 400, "validation_failed");
    await expectError(await fork("3f1c2e4a-1111-4222-8333-444455556666", { atTurn: 0 }), 404, "not_found");
  });
});
