// `npm test`: the whole suite on a fresh clone: types, unit and integration (Vitest, real SQLite
// files), then a production build and the end-to-end suite (Playwright on the system Chromium).
// Ends with one plain "N passed, N failed" line over both runners.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ensureBuild, ensureDependencies, ensurePrismaClient, npx, root } from "./lib.mjs";

const results = path.join(root, ".tmp", "test-results");
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, "vitest.json");
const playwrightJson = path.join(results, "playwright.json");

ensureDependencies();
ensurePrismaClient();
console.log("[threadline] typecheck");
npx("tsc", ["--noEmit"]);
console.log("[threadline] unit and integration tests");
npx("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
ensureBuild();
console.log("[threadline] end-to-end tests");
npx("playwright", ["test"]); // its JSON report goes to playwrightJson (playwright.config.ts)

const unit = JSON.parse(readFileSync(vitestJson, "utf8"));
const e2e = JSON.parse(readFileSync(playwrightJson, "utf8")).stats;
const passed = unit.numPassedTests + e2e.expected;
const failed = unit.numFailedTests + e2e.unexpected + e2e.flaky;
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped;
console.log(`\n[threadline] unit+integration ${unit.numPassedTests}/${unit.numTotalTests}, end-to-end ${e2e.expected}/${e2e.expected + e2e.unexpected + e2e.flaky + e2e.skipped}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (failed > 0) process.exit(1);
