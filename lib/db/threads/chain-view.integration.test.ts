/**
 * Integration tests of the chain page's data on a real SQLite file, including parent links that
 * loop (which imports now refuse, but older databases may hold).
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Thread } from "@/lib/domain/types";
import { newThread, newTurn } from "@/lib/testing/integration";
import { chainOffsetOfTurn, chainTurns, getChainView } from "./chain-view";
import { findThread, getThreadLinks } from "./threads";

async function setParent(id: string, parentThreadId: string): Promise<void> {
  await (await db()).thread.update({ where: { id }, data: { parentThreadId } });
}

async function viewOf(id: string) {
  const thread = await findThread(id);
  expect(thread).not.toBeNull();
  const view = await getChainView(thread!);
  return { ...view, ids: view.path.map((thread) => thread.id) };
}

async function buildChain(length: number): Promise<Thread[]> {
  const threads: Thread[] = [];
  for (let i = 0; i < length; i++) threads.push(await newThread({ toolName: "chat", parentThreadId: threads.at(-1)?.id }));
  return threads;
}

describe("getChainView", () => {
  it("draws ancestors, the thread and its continuations once each, with their turn counts", async () => {
    const [a, b, c] = await buildChain(3);
    await newTurn(b!.id, { role: "user", content: "in b" });
    const view = await viewOf(b!.id);
    expect(view.ids).toEqual([a!.id, b!.id, c!.id]);
    expect(view.path.map((t) => t.turnCount)).toEqual([0, 1, 0]);
    expect(view.ancestorsEnd).toEqual({ stoppedBy: "root", parentId: null });
    expect(view.branches).toEqual([]);
    expect(view.continuationsCut).toBe(false);
  });

  it("shows each thread of a loop A -> B -> A once and says it loops (not that a parent is missing)", async () => {
    const [a, b] = await buildChain(2);
    await setParent(a!.id, b!.id);
    for (const [from, expected] of [
      [a!, [b!.id, a!.id]],
      [b!, [a!.id, b!.id]],
    ] as const) {
      const view = await viewOf(from.id);
      expect(view.ids).toEqual(expected);
      expect(view.ancestorsEnd).toEqual({ stoppedBy: "cycle", parentId: expected[1] });
      expect(view.branches).toEqual([]);
    }
  });

  it("shows a thread that is its own parent once", async () => {
    const [a, child] = await buildChain(2);
    await setParent(a!.id, a!.id);
    const view = await viewOf(a!.id);
    expect(view.ids).toEqual([a!.id, child!.id]);
    expect(view.ancestorsEnd).toEqual({ stoppedBy: "cycle", parentId: a!.id });
  });

  it("names a parent that is not in the database", async () => {
    const missing = "7a000000-0000-4000-8000-00000000cafe";
    const [a] = await buildChain(1);
    await setParent(a!.id, missing);
    expect((await viewOf(a!.id)).ancestorsEnd).toEqual({ stoppedBy: "missing", parentId: missing });
  });

  it("stops at 20 ancestors and notes continuations cut at 20", async () => {
    const threads = await buildChain(25);
    const fromLeaf = await viewOf(threads[24]!.id);
    expect(fromLeaf.ids).toEqual(threads.slice(5).map((t) => t.id));
    expect(fromLeaf.ancestorsEnd).toEqual({ stoppedBy: "depth", parentId: threads[4]!.id });

    const fromRoot = await viewOf(threads[0]!.id);
    expect(fromRoot.ids).toEqual(threads.slice(0, 21).map((t) => t.id));
    expect(fromRoot.continuationsCut).toBe(true);
    expect((await viewOf(threads[4]!.id)).continuationsCut).toBe(false); // 20 continuations exactly
  });

  it("ends the path where it branches, listing the branches", async () => {
    const [a] = await buildChain(1);
    const first = await newThread({ toolName: "chat", parentThreadId: a!.id });
    const second = await newThread({ toolName: "chat", parentThreadId: a!.id });
    const view = await viewOf(a!.id);
    expect(view.ids).toEqual([a!.id]);
    expect(view.branches.map((t) => t.id).sort()).toEqual([first.id, second.id].sort());
  });
});

describe("chainTurns", () => {
  it("reads a window of the chain's turns across threads, numbered across the chain", async () => {
    const [a, b, c] = await buildChain(3);
    for (const [thread, count] of [
      [a!, 3],
      [b!, 0],
      [c!, 4],
    ] as const) {
      for (let i = 0; i < count; i++) await newTurn(thread.id, { role: "user", content: `${thread.id === a!.id ? "a" : "c"}${i}` });
    }
    const { path } = await viewOf(c!.id);
    const window = await chainTurns(path, 2, 5);
    expect(window.map(({ offset, thread, turn }) => [offset, thread.id, turn.content])).toEqual([
      [2, a!.id, "a2"],
      [3, c!.id, "c0"],
      [4, c!.id, "c1"],
    ]);
    expect((await chainTurns(path, 0, 99)).map(({ turn }) => turn.content)).toEqual(["a0", "a1", "a2", "c0", "c1", "c2", "c3"]);
    expect(await chainTurns(path, 7, 50)).toEqual([]);

    const last = window.at(-1)!.turn;
    expect(await chainOffsetOfTurn(path, last.id)).toBe(4);
    expect(await chainOffsetOfTurn(path, "not-a-turn")).toBeNull();
    const elsewhere = await newThread({ toolName: "chat" });
    const outside = await newTurn(elsewhere.id, { role: "user", content: "not in the chain" });
    expect(await chainOffsetOfTurn(path, outside.id)).toBeNull();
  });
});

describe("getThreadLinks", () => {
  it("does not list a thread that names itself as parent among its own continuations", async () => {
    const [a, b] = await buildChain(2);
    await setParent(a!.id, a!.id);
    const links = await getThreadLinks((await findThread(a!.id))!, null);
    expect(links.parent?.id).toBe(a!.id);
    expect(links.children.map((c) => c.id)).toEqual([b!.id]);
  });
});
