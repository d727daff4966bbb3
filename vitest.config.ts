import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const TEST_FILES = ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"];
/** The files that use a database say so in their name; everything else is a unit test. */
const INTEGRATION_TEST_FILES = TEST_FILES.map((pattern) => pattern.replace(/\.test\.ts$/, ".integration.test.ts"));

export default defineConfig({
  resolve: {
    alias: {
      "@": import.meta.dirname,
      // The guard only matters to the Next.js bundler; in tests every module is server code.
      "server-only": path.join(import.meta.dirname, "lib/testing/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    // One test file per core: Vitest's default (cores - 1) ran the suite on one worker on a 2-core machine.
    maxWorkers: "100%",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: TEST_FILES,
          exclude: [...configDefaults.exclude, ...INTEGRATION_TEST_FILES],
          // No database: a test that reaches one fails, naming the fix.
          setupFiles: ["./lib/testing/no-database.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: INTEGRATION_TEST_FILES,
          // One migrated template per run; each test file works on its own copy of it.
          globalSetup: ["./lib/testing/global-setup.ts"],
          setupFiles: ["./lib/testing/setup-database.ts"],
        },
      },
    ],
  },
});
