import { describe, expect, it } from "vitest";
import { collectChain, findParentCycle, type ChainLink } from "./chain";

function store(links: ChainLink[]) {
  const byId = new Map(links.map((l) => [l.id, l]));
  const loads: string[] = [];
  return { loads, load: async (id: string) => (loads.push(id), byId.get(id) ?? null) };
}

describe("collectChain", () => {
  it("returns the chain oldest first", async () => {
    const { load } = store([
      { id: "a", parentThreadId: null },
      { id: "b", parentThreadId: "a" },
      { id: "c", parentThreadId: "b" },
    ]);
    const result = await collectChain("c", load);
    expect(result.chain.map((l) => l.id)).toEqual(["a", "b", "c"]);
    expect(result.stoppedBy).toBe("root");
  });

  it("stops at 20 threads, keeping the newest", async () => {
    const links = Array.from({ length: 25 }, (_, i) => ({ id: `t${i}`, parentThreadId: i === 0 ? null : `t${i - 1}` }));
    const result = await collectChain("t24", store(links).load);
    expect(result.chain).toHaveLength(20);
    expect(result.chain[0]?.id).toBe("t5");
    expect(result.chain.at(-1)?.id).toBe("t24");
    expect(result.stoppedBy).toBe("depth");
  });

  it("is safe against cycles", async () => {
    const { load, loads } = store([
      { id: "a", parentThreadId: "c" },
      { id: "b", parentThreadId: "a" },
      { id: "c", parentThreadId: "b" },
    ]);
    const result = await collectChain("c", load);
    expect(result.chain.map((l) => l.id)).toEqual(["a", "b", "c"]);
    expect(result.stoppedBy).toBe("cycle");
    expect(loads).toEqual(["c", "b", "a"]);
  });

  it("stops at a missing parent", async () => {
    const result = await collectChain("b", store([{ id: "b", parentThreadId: "gone" }]).load);
    expect(result.chain.map((l) => l.id)).toEqual(["b"]);
    expect(result.stoppedBy).toBe("missing");
  });
});

describe("findParentCycle", () => {
  const parents = (links: Record<string, string | null>) => {
    const lookups: string[] = [];
    return { lookups, parentOf: (id: string) => (lookups.push(id), links[id] ?? null) };
  };

  it("finds a thread that is its own parent", async () => {
    expect(await findParentCycle(["a", "b"], parents({ a: null, b: "b" }).parentOf)).toEqual(["b"]);
  });

  it("finds a loop of several threads, also when reached from a thread outside it", async () => {
    const { parentOf } = parents({ x: "a", a: "b", b: "c", c: "a" });
    expect(await findParentCycle(["x", "c"], parentOf)).toEqual(["a", "b", "c"]);
  });

  it("ignores a loop among other threads that a start only leads into", async () => {
    expect(await findParentCycle(["x"], parents({ x: "a", a: "b", b: "a" }).parentOf)).toBeNull();
    expect(await findParentCycle(["x", "b"], parents({ x: "a", a: "b", b: "a" }).parentOf)).toEqual(["a", "b"]);
  });

  it("answers null for chains that end at a root or an unknown parent", async () => {
    expect(await findParentCycle(["c", "b", "d"], parents({ a: null, b: "a", c: "b", d: "gone" }).parentOf)).toBeNull();
  });

  it("looks each thread up once, so a long chain costs linear time", async () => {
    const links = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`t${i}`, i === 0 ? null : `t${i - 1}`]));
    const { parentOf, lookups } = parents(links);
    expect(await findParentCycle(Object.keys(links), parentOf)).toBeNull();
    expect(lookups).toHaveLength(1000);
  });
});
