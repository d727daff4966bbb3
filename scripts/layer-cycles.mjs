// Part of `npm run lint`: no two layers import each other, through any of their files (a folder
// cycle: lib/db → lib/context → lib/db). dependency-cruiser's own rule finds cycles between
// files; this one groups the files into the layers eslint.config.mjs names and looks for cycles
// between those. Test code (tests, lib/testing) may reach across layers and is left out.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LAYERS } from "../eslint.config.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TEST_CODE = /(\.test\.tsx?$|^lib\/testing\/)/;

/** The layer a file belongs to: the longest layer path it is, or sits under; null outside every layer. */
export function layerOf(file, layers = Object.keys(LAYERS)) {
  let best = null;
  for (const layer of layers) {
    if ((file === layer || file.startsWith(`${layer}/`)) && (!best || layer.length > best.length)) best = layer;
  }
  return best;
}

/** Edges between layers, each with one file-to-file import that makes it (for the message). */
export function layerEdges(modules, layers = Object.keys(LAYERS)) {
  const edges = new Map();
  for (const cruised of modules) {
    if (TEST_CODE.test(cruised.source)) continue;
    const from = layerOf(cruised.source, layers);
    if (!from) continue;
    for (const dependency of cruised.dependencies) {
      const to = layerOf(dependency.resolved, layers);
      if (!to || to === from || TEST_CODE.test(dependency.resolved)) continue;
      const key = `${from}\u0000${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, example: `${cruised.source} → ${dependency.resolved}` });
    }
  }
  return [...edges.values()];
}

/** The cycles among the layers: strongly connected groups of two or more (Tarjan), each as its edges. */
export function layerCycles(edges) {
  const next = new Map();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group);
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return groups.map((group) => edges.filter((edge) => group.includes(edge.from) && group.includes(edge.to)));
}

function main() {
  const json = execFileSync(
    path.join(root, "node_modules/.bin/depcruise"),
    ["--config", ".dependency-cruiser.cjs", "--output-type", "json", "app", "components", "lib", "proxy.ts", "instrumentation.ts"],
    { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" },
  );
  const cycles = layerCycles(layerEdges(JSON.parse(json).modules));
  if (cycles.length === 0) return;
  for (const cycle of cycles) {
    console.error(`Layers in a circle: ${[...new Set(cycle.map((edge) => edge.from))].join(", ")}`);
    for (const edge of cycle) console.error(`  ${edge.from} imports ${edge.to}: ${edge.example}`);
  }
  console.error("Each layer may import only the layers below it (eslint.config.mjs, docs/architecture.md).");
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
