/**
 * The layer rules `npm run lint` enforces (eslint.config.mjs, .dependency-cruiser.cjs) bite: each
 * deliberately wrong import below is reported, and the same file without it is clean. ESLint lints
 * the text as if it were the named file, so nothing is written into the source tree.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";
import { LAYERS, UNLAYERED, zonesFor } from "../eslint.config.mjs";
import { layerCycles, layerEdges } from "./layer-cycles.mjs";

const root = path.resolve(__dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` placed at `file` (relative to the repository). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

/** Where a probe for `layer` is linted from: a file in the folder, or the layer's own file. */
function probeFile(layer: string): string {
  if (/\.tsx?$/.test(layer)) return layer;
  return `${layer}/layer-probe.${layer === "components" || layer === "app" ? "tsx" : "ts"}`;
}

/** A real module of `layer` to import: the file itself, or the first source file found in the folder. */
function sampleModule(layer: string): string {
  if (/\.tsx?$/.test(layer)) return `@/${layer.replace(/\.tsx?$/, "")}`;
  const walk = (dir: string): string | null => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const relative = `${dir}/${name}`;
      if (statSync(path.join(root, relative)).isDirectory()) {
        if (name === "generated" || name === "generated-pg" || name.startsWith("[")) continue;
        const found = walk(relative);
        if (found) return found;
      } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) return relative;
    }
    return null;
  };
  const file = walk(layer);
  if (!file) throw new Error(`no source file in ${layer}`);
  return `@/${file.replace(/\.tsx?$/, "")}`;
}

/** Whether `layer` sits inside one of the allowed paths. */
const covered = (layer: string, allowed: Set<string>) => [...allowed].some((path) => layer.startsWith(`${path}/`));

const WRONG_IMPORTS: { file: string; code: string; rule: string }[] = [
  {
    file: "lib/db/layer-probe.ts",
    code: 'import { buildContext } from "@/lib/context/build-context";\nexport const probe = buildContext;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "components/auth/layer-probe.tsx",
    code: 'import { principalFrom } from "@/lib/auth/principal";\nexport const probe = principalFrom;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/queries/layer-probe.ts",
    code: 'import type { Database } from "@/lib/db/engine/client";\nexport type Probe = Database;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/domain/layer-probe.ts",
    code: 'import { PrismaClient } from "@prisma/client";\nexport const probe = PrismaClient;\n',
    rule: "no-restricted-imports",
  },
  {
    file: "lib/domain/layer-probe.ts",
    code: 'import { NextResponse } from "next/server";\nexport const probe = NextResponse;\n',
    rule: "no-restricted-imports",
  },
  {
    file: "lib/domain/layer-probe.ts",
    code: 'import { readFileSync } from "node:fs";\nexport const probe = readFileSync;\n',
    rule: "no-restricted-imports",
  },
  { file: "lib/domain/layer-probe.ts", code: "export const probe = process.env.HOME;\n", rule: "no-restricted-properties" },
  {
    file: "lib/domain/layer-probe.ts",
    code: 'import { serverSettings } from "@/lib/env";\nexport const probe = serverSettings;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/domain/layer-probe.ts",
    code: 'import { db } from "../db/engine/client";\nexport const probe = db;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/importers/layer-probe.ts",
    code: 'import { db } from "@/lib/db/engine/client";\nexport const probe = db;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/validation/layer-probe.ts",
    code: 'import { providerFor } from "@/lib/llm/provider";\nexport const probe = providerFor;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/db/layer-probe.ts",
    code: 'import { GET } from "@/app/api/threads/route";\nexport const probe = GET;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/db/layer-probe.ts",
    code: 'import { handleRoute } from "@/lib/http/responses";\nexport const probe = handleRoute;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "components/layer-probe.tsx",
    code: 'import type { ForkLinks } from "@/lib/db/threads/forks";\nexport type Probe = ForkLinks;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/compaction/layer-probe.ts",
    code: 'import { HTTP_STATUS } from "@/lib/http/responses";\nexport const probe = HTTP_STATUS;\n',
    rule: "import/no-restricted-paths",
  },
];

describe("npm run lint: layer rules", () => {
  it.each(WRONG_IMPORTS)("$file: $code", async ({ file, code, rule }) => {
    expect(await ruleIds(file, code)).toContain(rule);
  });

  it("passes the same places their allowed imports", async () => {
    expect(
      await ruleIds(
        "lib/domain/layer-probe.ts",
        'import { z } from "zod";\nimport { isUuid } from "./ids";\nexport const probe = [z, isUuid];\n',
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        "components/layer-probe.tsx",
        'import type { ForkLinks } from "@/lib/domain/threads/links";\nexport type Probe = ForkLinks;\n',
      ),
    ).toEqual([]);
    expect(
      await ruleIds("lib/db/layer-probe.ts", 'import { AppError } from "@/lib/domain/errors";\nexport const probe = AppError;\n'),
    ).toEqual([]);
  });

  // Every layer against every other: a probe file in the layer imports one real module of each;
  // exactly the imports its allow-list does not name are refused, with the layer's own sentence.
  const layerNames = Object.keys(LAYERS);
  it.each(layerNames)("%s imports what its allow-list names, and nothing else of the app", async (layer) => {
    const others = layerNames.filter((other) => other !== layer && !other.startsWith(`${layer}/`));
    const lines = others.map((other, i) => `import * as m${i} from "${sampleModule(other)}";`);
    const code = `${lines.join("\n")}\nexport const probe = [${others.map((_, i) => `m${i}`).join(", ")}];\n`;
    const probe = probeFile(layer);
    const [result] = await eslint.lintText(code, { filePath: path.join(root, probe) });
    const refused = result!.messages
      .filter((message) => message.ruleId === "import/no-restricted-paths")
      .map((message) => others[message.line - 1]);
    const allowed = new Set(LAYERS[layer]!.allow);
    expect(refused.sort(), `refused for ${probe}`).toEqual(
      others.filter((other) => !allowed.has(other) && !covered(other, allowed)).sort(),
    );
  });

  it("places every folder under lib/ in a layer (or says it is test support)", () => {
    const placed = new Set<string>([...Object.keys(LAYERS), ...UNLAYERED]);
    const folders = readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `lib/${entry.name}`);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !placed.has(folder))).toEqual([]);
  });

  it("refuses a folder no layer names, to every layer", () => {
    const unplaced = "lib/brand-new-folder";
    for (const [layer, rule] of Object.entries(LAYERS)) {
      const zones = zonesFor(layer, rule);
      const refusing = zones.find((zone: { from: string; except?: string[] }) => {
        const from = zone.from.slice(2);
        if (!unplaced.startsWith(`${from}/`)) return false;
        return !(zone.except ?? []).some((except) => unplaced.startsWith(`${from}/${except.slice(2)}`));
      });
      expect(refusing, `${layer} may import ${unplaced}`).toBeDefined();
    }
  });
});

describe("npm run lint: layers in a circle", () => {
  const modules = (edges: [string, string][]) =>
    Object.entries(edges.reduce<Record<string, string[]>>((all, [from, to]) => ({ ...all, [from]: [...(all[from] ?? []), to] }), {})).map(
      ([source, targets]) => ({ source, dependencies: targets.map((resolved) => ({ resolved })) }),
    );

  it("finds two folders that import each other through different files (the handoff case)", () => {
    const edges = layerEdges(
      modules([
        ["lib/db/handoff.ts", "lib/context/build-context.ts"],
        ["lib/context/build-context.ts", "lib/db/threads/turns.ts"],
        ["lib/db/threads/turns.ts", "lib/domain/types.ts"],
      ]),
    );
    const cycles = layerCycles(edges);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]!.map((edge) => `${edge.from} > ${edge.to}`).sort()).toEqual(["lib/context > lib/db", "lib/db > lib/context"]);
  });

  it("finds none when every import points down, and leaves test code out", () => {
    const edges = layerEdges(
      modules([
        ["lib/context/build-context.ts", "lib/db/threads/turns.ts"],
        ["lib/db/threads/turns.ts", "lib/domain/types.ts"],
        ["lib/db/turns.test.ts", "lib/context/build-context.ts"],
        ["lib/db/threads/turns.ts", "lib/testing/integration.ts"],
      ]),
    );
    expect(layerCycles(edges)).toEqual([]);
  });
});

describe("npm run lint: import cycles", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "threadline-cycle-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a cycle made only of type imports", async () => {
    writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b";\nexport type A = { b: B };\n');
    writeFileSync(path.join(dir, "b.ts"), 'import type { A } from "./a";\nexport type B = { a?: A };\n');
    writeFileSync(path.join(dir, "c.ts"), 'import type { A } from "./a";\nexport type C = A;\n');
    const { cruise } = await import("dependency-cruiser");
    const config = (await import(path.join(root, ".dependency-cruiser.cjs"))).default;
    const result = await cruise(["."], {
      ...config.options,
      ruleSet: { forbidden: config.forbidden },
      baseDir: dir,
      exclude: undefined,
      tsConfig: undefined,
      validate: true,
    });
    const output = typeof result.output === "string" ? JSON.parse(result.output) : result.output;
    const cycles = output.summary.violations.filter((violation: { rule: { name: string } }) => violation.rule.name === "no-cycles");
    expect(cycles.map((violation: { from: string; to: string }) => [violation.from, violation.to].sort())).toContainEqual(["a.ts", "b.ts"]);
    expect(cycles.some((violation: { from: string }) => violation.from === "c.ts")).toBe(false);
  });
});
