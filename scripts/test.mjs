// `npm test`: the whole suite on a fresh clone: types, lint (the layer rules), unit and
// integration tests (Vitest, real SQLite files; the package is packed from the production build
// made before them), the integration tests again on PostgreSQL (scripts/test-postgres.mjs says
// which server, or why the pass is skipped), then the end-to-end suite on that build (Playwright
// on the system Chromium, SQLite). Ends with one plain "N passed, N failed" line over every pass.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ensureBuild, ensureDependencies, ensurePrismaClient, npx, root, run } from "./lib.mjs";
import { testPostgres } from "./test-postgres.mjs";

const results = path.join(root, ".tmp", "test-results");
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, "vitest.json");
const vitestPostgresJson = path.join(results, "vitest-postgres.json");
const playwrightJson = path.join(results, "playwright.json");

ensureDependencies();
ensurePrismaClient();
console.log("[threadline] typecheck");
npx("tsc", ["--noEmit"]);
console.log("[threadline] lint: Next.js rules, layer boundaries, file sizes, import cycles");
run("npm", ["run", "--silent", "lint"]);
// The production build before the tests rather than before the end-to-end suite: the package's test
// packs it (scripts/pack.integration.test.ts), so the suite builds once.
ensureBuild();
console.log("[threadline] unit and integration tests");
npx("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);

const postgres = testPostgres();
let onPostgres = null;
if (postgres.url) {
  console.log(`[threadline] integration tests on PostgreSQL (${new URL(postgres.url).host})`);
  npx("vitest", ["run", "--project=integration", "--reporter=dot", "--reporter=json", `--outputFile.json=${vitestPostgresJson}`], {
    env: { THREADLINE_TEST_POSTGRES_URL: postgres.url },
  });
  onPostgres = JSON.parse(readFileSync(vitestPostgresJson, "utf8"));
} else if (process.env.CI) {
  // CI proves both databases: a pass that did not run must not look like one that passed.
  console.error(`[threadline] the PostgreSQL pass could not run in CI: ${postgres.skipped}`);
  process.exit(1);
} else {
  console.log(`[threadline] PostgreSQL pass skipped: ${postgres.skipped}`);
}
console.log("[threadline] end-to-end tests");
npx("playwright", ["test"]); // its JSON report goes to playwrightJson (playwright.config.ts)

const unit = JSON.parse(readFileSync(vitestJson, "utf8"));
const e2e = JSON.parse(readFileSync(playwrightJson, "utf8")).stats;
const vitestRuns = [unit, onPostgres].filter(Boolean);
const sum = (key) => vitestRuns.reduce((total, run) => total + run[key], 0);
const passed = sum("numPassedTests") + e2e.expected;
const failed = sum("numFailedTests") + e2e.unexpected + e2e.flaky;
const skipped = sum("numPendingTests") + sum("numTodoTests") + e2e.skipped;
const postgresLine = onPostgres
  ? `, integration on PostgreSQL ${onPostgres.numPassedTests}/${onPostgres.numTotalTests}`
  : ", PostgreSQL skipped";
console.log(
  `\n[threadline] unit+integration ${unit.numPassedTests}/${unit.numTotalTests}${postgresLine}, end-to-end ${e2e.expected}/${e2e.expected + e2e.unexpected + e2e.flaky + e2e.skipped}`,
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (failed > 0) process.exit(1);
