import { describe, expect, it, vi } from "vitest";
import { createDatabase, databaseKind } from "./create-client";

describe("databaseKind", () => {
  it("knows a PostgreSQL client in every copy of the module, as a production build has several", async () => {
    // next build bundles this module into instrumentation's chunk and again into the routes'; the
    // one client (globalThis, lib/db/engine/client.ts) is made by whichever copy runs first.
    vi.resetModules();
    const copy = await import("./create-client");
    expect(copy.databaseKind).not.toBe(databaseKind);
    // Nothing connects until a query.
    const client = createDatabase("postgresql://nobody@127.0.0.1:1/none");
    try {
      expect(databaseKind(client)).toBe("postgres");
      expect(copy.databaseKind(client)).toBe("postgres");
      expect(copy.databaseKind({})).toBe("sqlite");
    } finally {
      await client.$disconnect();
    }
  });
});
