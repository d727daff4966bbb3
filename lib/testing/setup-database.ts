import { createTestDatabase } from "./test-database";

// A real database per test file (SQLite, or PostgreSQL with THREADLINE_TEST_POSTGRES_URL), copied
// from the migrated template: no database mocks.
process.env.DATABASE_URL = await createTestDatabase();
