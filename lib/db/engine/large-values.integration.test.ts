/**
 * Turns larger than LARGE_VALUE_CHARS reach the database beside Prisma's query compiler: what is
 * stored, returned and exported must be exactly what was sent, on SQLite and PostgreSQL, and a
 * text that merely looks like a placeholder is stored as it is.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { json } from "@/lib/testing/api";
import { api, fetchThread, newThread, newTurn } from "@/lib/testing/integration";
import { chunkedByWeight } from "./chunks";
import { forkThread } from "../threads/forks";
import { LARGE_VALUE_CHARS, resolveLargeValues, withLargeValues } from "./large-values";

describe("large values", () => {
  it("stores a long turn, its parts and its file snapshot exactly, and answers them", async () => {
    const thread = await newThread();
    const content = `${"漢字かな😀\u0000 ".repeat(LARGE_VALUE_CHARS / 4)}end`;
    const output = "x".repeat(LARGE_VALUE_CHARS + 1);
    const snapshot = `const big = "${"y".repeat(LARGE_VALUE_CHARS * 2)}";\n`;
    const turn = await newTurn(thread.id, {
      role: "assistant",
      content,
      parts: [
        { type: "text", text: content },
        { type: "tool_call", id: "call_1", name: "Bash", arguments: { command: "yes" } },
        { type: "tool_result", toolCallId: "call_1", content: output },
      ],
      files: ["src/big.ts"],
      fileSnapshots: [{ path: "src/big.ts", content: snapshot }],
    });
    expect(turn.content).toBe(content);
    const stored = await (await db()).turn.findUniqueOrThrow({ where: { id: turn.id }, include: { snapshots: true } });
    expect(stored.content).toBe(content);
    expect(stored.parts).toContain(output);
    expect(stored.snapshots.map((s) => s.content)).toEqual([snapshot]);
    const { turns } = await fetchThread(thread.id);
    expect(turns[0]!.content).toBe(content);
  });

  it("copies long turns exactly into a fork, in statements of bounded size", async () => {
    const thread = await newThread();
    const long = `${"長".repeat(LARGE_VALUE_CHARS)}!`;
    const middling = "m".repeat(LARGE_VALUE_CHARS - 1); // just under: goes through Prisma, batched by size
    await newTurn(thread.id, { role: "user", content: long, fileSnapshots: [{ path: "a.txt", content: long }], files: ["a.txt"] });
    for (let i = 0; i < 20; i++) await newTurn(thread.id, { role: i % 2 ? "user" : "assistant", content: `${i} ${middling}` });
    const fork = await forkThread(thread.id, 20, null);
    const [original, copy] = [await fetchThread(thread.id), await fetchThread(fork.thread.id)];
    expect(copy.turns.map((t) => t.content)).toEqual(original.turns.map((t) => t.content));
    expect(copy.turns[0]!.fileSnapshots).toEqual([{ path: "a.txt", content: long }]);
  });

  it("imports an exported thread with long turns exactly (threadline/v1, ?mode=copy)", async () => {
    const thread = await newThread();
    const long = `${"🚀".repeat(LARGE_VALUE_CHARS)}.`;
    await newTurn(thread.id, { role: "user", content: long, fileSnapshots: [{ path: "b.txt", content: long }], files: ["b.txt"] });
    for (let i = 0; i < 20; i++) await newTurn(thread.id, { role: "assistant", content: `${i} ${"n".repeat(LARGE_VALUE_CHARS - 10)}` });
    const exported = await (await api.exportThread(thread.id)).text();
    const imported = await api.importDocuments(exported, "?mode=copy");
    expect(imported.status, await imported.clone().text()).toBe(201);
    const { threadIds } = await json<{ threadIds: string[] }>(imported);
    const [original, copy] = [await fetchThread(thread.id), await fetchThread(threadIds[0]!)];
    expect(copy.turns.map((t) => t.content)).toEqual(original.turns.map((t) => t.content));
    expect(copy.turns[0]!.fileSnapshots).toEqual([{ path: "b.txt", content: long }]);
  });

  it("batches by count and by weight, a heavy item alone", () => {
    const weights = [5, 5, 5, 20, 1, 1, 1, 1];
    expect(chunkedByWeight(weights, 3, 10, (w) => w)).toEqual([[5, 5], [5], [20], [1, 1, 1], [1]]);
    expect(chunkedByWeight([], 3, 10, (w: number) => w)).toEqual([]);
  });

  it("leaves a text that looks like a placeholder alone, and nothing pending after the write", async () => {
    const thread = await newThread();
    const lookalike = "\u0000threadline-large-value:3f1c2e4a-1111-4222-8333-444455556666";
    const turn = await newTurn(thread.id, { role: "user", content: lookalike });
    expect(turn.content).toBe(lookalike);
    let placeholder = "";
    await withLargeValues(async (large) => {
      placeholder = large("z".repeat(LARGE_VALUE_CHARS));
      expect(placeholder).not.toContain("z");
      expect(resolveLargeValues([1, placeholder, lookalike])).toEqual([1, "z".repeat(LARGE_VALUE_CHARS), lookalike]);
      expect(large("short")).toBe("short");
    });
    expect(resolveLargeValues([placeholder])).toEqual([placeholder]);
  });
});
