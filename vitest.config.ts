import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname),
      // The guard only matters to the Next.js bundler; in tests every module is server code.
      "server-only": path.resolve(__dirname, "lib/testing/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["./lib/testing/global-setup.ts"],
    setupFiles: ["./lib/testing/setup-database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
