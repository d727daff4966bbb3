import { describe, expect, it } from "vitest";
import { layoutLineage, type LineageEdge } from "./lineage";

const at = (layout: ReturnType<typeof layoutLineage>) => Object.fromEntries(layout.nodes.map((n) => [n.id, [n.depth, n.column]]));

describe("layoutLineage", () => {
  it("lays a chain out as one column, a layer per thread", () => {
    const edges: LineageEdge[] = [
      { from: "a", to: "b", kind: "continuation" },
      { from: "b", to: "c", kind: "continuation" },
    ];
    expect(at(layoutLineage("a", edges))).toEqual({ a: [0, 0], b: [1, 0], c: [2, 0] });
  });

  it("puts siblings side by side in edge order and centres the parent above them", () => {
    const edges: LineageEdge[] = [
      { from: "a", to: "b", kind: "continuation" },
      { from: "a", to: "f", kind: "fork", atTurn: 2 },
      { from: "a", to: "r", kind: "compaction" },
      { from: "f", to: "g", kind: "continuation" },
    ];
    const layout = layoutLineage("a", edges);
    expect(at(layout)).toEqual({ a: [0, 1], b: [1, 0], f: [1, 1], g: [2, 1], r: [1, 2] });
    expect(layout).toMatchObject({ depth: 2, width: 3 });
    expect(layout.edges).toHaveLength(4);
  });

  it("places a node reached twice once, keeps both edges, and survives loops", () => {
    const edges: LineageEdge[] = [
      { from: "a", to: "b", kind: "continuation" },
      { from: "a", to: "c", kind: "fork" },
      { from: "c", to: "b", kind: "compaction" },
      { from: "b", to: "a", kind: "continuation" },
    ];
    const layout = layoutLineage("a", edges);
    expect(layout.nodes.map((n) => n.id).sort()).toEqual(["a", "b", "c"]);
    expect(layout.edges).toHaveLength(4);
  });

  it("answers a lone thread", () => {
    expect(layoutLineage("a", [])).toEqual({ nodes: [{ id: "a", depth: 0, column: 0 }], edges: [], depth: 0, width: 1 });
  });
});
