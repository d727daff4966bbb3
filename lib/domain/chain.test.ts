import { describe, expect, it } from "vitest";
import { collectChain, type ChainLink } from "./chain";

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
