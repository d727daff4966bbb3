/**
 * The server's start of following (instrumentation.ts): what it answers is the first sync, which
 * the count backlog's first pass waits for, so a restart's sync has the thread to itself.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { makeSourcesHome } from "@/lib/testing/sources-home";
import { startFollowingSources } from "./start";
import { sourceSync } from "./sync";

let home: ReturnType<typeof makeSourcesHome>;
beforeEach(() => {
  home = makeSourcesHome();
  setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await sourceSync().close();
  home.remove();
  restoreServerEnv();
  vi.restoreAllMocks();
  await forgetSyncedImports();
});

describe("startFollowingSources", () => {
  it("resolves once the first sync of the followed folders has ended", async () => {
    await startFollowingSources();
    const status = sourceSync().status();
    expect(status.syncing).toBe(false);
    expect(status.folders).toHaveLength(1);
    expect(status.folders[0]).toMatchObject({ path: home.claudeProjects, imported: 7, failed: 0, state: "watching" });
    expect(status.folders[0]!.lastSyncAt).not.toBeNull();
  });
});
