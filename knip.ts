import type { KnipConfig } from "knip";

/**
 * `npm run lint` runs knip twice: as is (every file, with tests and test support) and with
 * --production, where what only tests use counts as unused. Files marked "!" make the production
 * project; test support (lib/testing, lib/domain/testing, test-helpers.ts) and e2e are left out of it.
 * A helper a module uses itself and exports only for its unit tests says so with `@internal`,
 * which --production accepts. The generated Prisma clients are git-ignored, so knip never reads them.
 */
const config: KnipConfig = {
  entry: [
    // Run by package.json, Playwright's web servers (e2e-server.mjs, e2e-oidc-provider.mjs) and
    // scripts/test.mjs. knip finds package.json's scripts itself, but not in --production.
    "scripts/*.mjs!",
    "scripts/{seed,db-copy,write-schema,usage,export}.ts!",
    "scripts/bench/index.ts!",
    "scripts/prisma-cli-timers.cjs!",
    // Worker threads, started by file path (new Worker(...)), not imported.
    "lib/db/engine/checkpoint-worker.mjs!",
    "lib/tokenizers/count-worker.mjs!",
    // Bundled by scripts/build-workers.mjs, and started from the bundle.
    "lib/imports/parse-worker.ts!",
    "lib/push/cli.ts!",
    // Child processes of integration tests, started by file path.
    "lib/testing/*-worker.ts",
    // vitest.config.ts stands it in for server-only.
    "lib/testing/empty-module.ts",
  ],
  project: [
    "**/*.{ts,tsx,mjs,cjs,css}!",
    "!lib/testing/**!",
    "!lib/domain/testing/**!",
    "!**/test-helpers.ts!",
    "!e2e/**!",
    "!**/*.test.ts!",
  ],
  // Tests make named pipes with the system's mkfifo, and read a PostgreSQL database whole with pg_dump.
  ignoreBinaries: ["mkfifo", "pg_dump"],
  // A native binary the ccusage comparison runs by its path (scripts/usage-ccusage.integration.test.ts).
  ignoreDependencies: ["ccusage"],
  // app/globals.css imports Tailwind: knip reads CSS @imports as imports.
  compilers: { css: (text: string) => [...text.matchAll(/(?<=@)import[^;]+/g)].join("\n") },
};

export default config;
