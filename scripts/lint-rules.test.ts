/**
 * The layer rules `npm run lint` enforces (eslint.config.mjs, .dependency-cruiser.cjs) bite: each
 * deliberately wrong import below is reported, and the same file without it is clean. ESLint lints
 * the text as if it were the named file, so nothing is written into the source tree.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` placed at `file` (relative to the repository). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

const WRONG_IMPORTS: { file: string; code: string; rule: string }[] = [
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
    code: 'import { db } from "../db/client";\nexport const probe = db;\n',
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/importers/layer-probe.ts",
    code: 'import { db } from "@/lib/db/client";\nexport const probe = db;\n',
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
    code: 'import type { ForkLinks } from "@/lib/db/forks";\nexport type Probe = ForkLinks;\n',
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
      await ruleIds("components/layer-probe.tsx", 'import type { ForkLinks } from "@/lib/domain/links";\nexport type Probe = ForkLinks;\n'),
    ).toEqual([]);
    expect(
      await ruleIds("lib/db/layer-probe.ts", 'import { AppError } from "@/lib/domain/errors";\nexport const probe = AppError;\n'),
    ).toEqual([]);
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
