import { afterEach, vi } from "vitest";

/**
 * Setup of the unit project, which has no database. A test that reaches one by mistake fails,
 * naming the fix, instead of opening whatever DATABASE_URL names (unset: the developer's own
 * data/threadline.db). Every way into a database from the test's own process goes through these modules.
 */
const NO_DATABASE = "unit tests have no database; a test file that needs one is named *.integration.test.ts";
let reached = false;
const refuse = () => {
  reached = true;
  throw new Error(NO_DATABASE);
};
// Route handlers turn the error into a 500; the test still fails with the reason.
afterEach(() => {
  if (!reached) return;
  reached = false;
  throw new Error(NO_DATABASE);
});

vi.mock(import("@/lib/db/engine/create-client"), async (importOriginal) => ({ ...(await importOriginal()), createDatabase: refuse }));
vi.mock(import("@/lib/db/engine/migrate"), async (importOriginal) => ({ ...(await importOriginal()), migrateDatabase: refuse }));
vi.mock(import("@/lib/testing/test-database"), async (importOriginal) => ({
  ...(await importOriginal()),
  prepareTemplate: refuse,
  createTestDatabase: refuse,
}));
