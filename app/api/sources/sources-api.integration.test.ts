/**
 * GET /api/sources and POST /api/sources/sync through the route handlers, on the test file's real
 * database and a temporary HOME whose ~/.claude/projects holds copies of the real fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourcesStatus } from "@/lib/domain/sources/sources";
import { jsonRequest } from "@/lib/testing/api";
import { expectError, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { makeSourcesHome } from "@/lib/testing/sources-home";
import { sourceSync } from "@/lib/sources/sync";
import { GET } from "./route";
import { POST } from "./sync/route";

let home: ReturnType<typeof makeSourcesHome>;
beforeAll(() => {
  home = makeSourcesHome();
  // Named, not the default: unset, PostgreSQL follows nothing (the sync's own tests cover that).
  setServerEnv({ HOME: home.home, THREADLINE_SOURCES: "~/.claude/projects" });
});
afterAll(async () => {
  await sourceSync().close();
  home.remove();
  restoreServerEnv();
});

const status = async () => (await (await GET()).json()) as SourcesStatus;

describe("/api/sources", () => {
  it("answers the followed folders before any sync, starts a sync with 202, then reports its counts", async () => {
    expect(await status()).toMatchObject({
      origin: "setting",
      syncing: false,
      folders: [{ path: home.claudeProjects, state: "found", filesSeen: 0 }],
    });

    const started = await POST(new Request("http://threadline.test/api/sources/sync", { method: "POST" }));
    expect(started.status).toBe(202);
    expect(((await started.json()) as SourcesStatus).syncing).toBe(true);

    await sourceSync().sync(); // joins the sync the request started
    const after = await status();
    expect(after.syncing).toBe(false);
    // The server's sync watches each folder once synced.
    expect(after.folders[0]).toMatchObject({ state: "watching", filesSeen: 7, imported: 7, failed: 0 });
  });

  it("takes an empty object as the body, and refuses anything else", async () => {
    expect((await POST(jsonRequest("POST", "/api/sources/sync", {}))).status).toBe(202);
    await sourceSync().sync();
    await expectError(await POST(jsonRequest("POST", "/api/sources/sync", { folder: "/etc" })), 400, "validation_failed");
    await expectError(
      await POST(new Request("http://threadline.test/api/sources/sync", { method: "POST", body: "{" })),
      400,
      "invalid_json",
    );
  });
});
