import { PHASE_PRODUCTION_BUILD } from "next/constants";

/**
 * Next.js calls register() once when a server starts. In the Node.js server (not the Edge
 * runtime, and not while `next build` prerenders pages) it checks the settings and starts
 * following the transcript folders THREADLINE_SOURCES names: the first sync runs in the
 * background (lib/sources).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === PHASE_PRODUCTION_BUILD) return;
  // Settings that cannot be used (a malformed THREADLINE_TRUSTED_PROXIES) stop the server now.
  const { checkServerSettings } = await import("./lib/env");
  checkServerSettings();
  // The demo threads, on the first start against a database, for someone without sessions of their
  // own (THREADLINE_DEMO_DATA=on or off decides instead; a team's shared database wants off).
  const { seedDemoOnce } = await import("./lib/demo/seeding");
  try {
    const { said, warnings } = await seedDemoOnce();
    for (const warning of warnings) console.warn(`[threadline] warning: ${warning}`);
    for (const line of said) console.log(`[threadline] ${line}`);
  } catch (error) {
    console.error("[threadline] seeding the demo threads failed", error);
  }
  const { startFollowingSources } = await import("./lib/sources/start");
  const firstSync = startFollowingSources();
  // The scan for secrets: backfills what is stored, then follows every write of turns.
  const { scanForSecrets, startSecretScan } = await import("./lib/secrets/scan");
  startSecretScan();
  // Usage buckets (the /usage page's sums): summed for what is stored, then after every write.
  const { refreshUsageBuckets, startUsageBuckets } = await import("./lib/db/usage/usage-aggregates");
  startUsageBuckets();
  // Token counts a sync left out (budget previews use them): counted once each sync has ended
  // and the scan and the sums above have caught up with it. The first pass also waits for the
  // first sync: a restart's sync confirms every followed file meanwhile, and the pass's walk of
  // the stored turns made it a third slower.
  // Before the counts, the garbage the sync left is collected: the counting worker's vocabulary
  // came on top of it, and that was the group's peak.
  const { collectGarbage, releaseHeapAtRest } = await import("./lib/runtime/heap-release");
  const { startCountingBacklog } = await import("./lib/db/threads/count-backlog");
  startCountingBacklog(async () => {
    await firstSync;
    await scanForSecrets();
    await refreshUsageBuckets();
    collectGarbage();
  });
  // The heap a first sync grew to, given back once the server rests.
  releaseHeapAtRest();
}
