import "server-only";
import { buildDemoDocument, DEMO_SOURCE } from "@/lib/demo/demo-data";
import { db } from "@/lib/db/engine/client";
import { importDocuments } from "@/lib/db/imports/transfer";
import { demoSeeding, parseDemoDataSetting, type DemoSeeding } from "@/lib/domain/threads/demo-seeding";
import type { SourcesSetting } from "@/lib/domain/sources/sources";
import { serverSettings } from "@/lib/env";
import { transcriptFiles } from "@/lib/imports/transcript-files";

const SEEDED_KEY = "demoSeededAt";

/**
 * The first transcript file in the folders the server follows (the same walk its sync imports
 * with, lib/sources/sync.ts), or null: a missing or unreadable folder holds none.
 * @internal exported for its tests
 */
export async function firstFollowedSession(sources: SourcesSetting): Promise<string | null> {
  for (const folder of sources.folders) {
    try {
      for await (const file of transcriptFiles(folder, { onProblem: () => {}, onSkip: () => {} })) return file.path;
    } catch {
      // Missing (a default folder of an agent not installed) or unreadable: no session there.
    }
  }
  return null;
}

/**
 * Whether a server seeds the demo threads (lib/domain/threads/demo-seeding.ts), and why, with a warning for a THREADLINE_DEMO_DATA it did not understand.
 * @internal exported for its tests
 */
export async function decideDemoSeeding({
  demoData,
  sources,
  threads,
}: {
  demoData: string | undefined;
  sources: SourcesSetting;
  threads: () => Promise<number>;
}): Promise<DemoSeeding & { warning: string | null }> {
  const { setting, warning } = parseDemoDataSetting(demoData);
  // Forced either way, nothing is looked at.
  const session = setting === "auto" ? await firstFollowedSession(sources) : null;
  const count = setting === "auto" && session === null ? await threads() : 0;
  return { ...demoSeeding({ setting, session, threads: count }), warning };
}

/** Adds the demo threads (another copy under new ids when some are there) and notes that they were seeded. */
export async function seedDemoThreads(): Promise<{ threads: number; turns: number }> {
  const client = await db();
  const existing = await client.thread.count({ where: { source: DEMO_SOURCE } });
  const result = await importDocuments([buildDemoDocument()], existing > 0 ? "copy" : "strict");
  const now = new Date().toISOString();
  await client.appSetting.upsert({ where: { key: SEEDED_KEY }, create: { key: SEEDED_KEY, value: now }, update: { value: now } });
  return { threads: result.threadIds.length, turns: result.turnCount };
}

/**
 * The demo threads, once: on the first start against a database, for someone without sessions of
 * their own (decideDemoSeeding). The server does it as it starts (instrumentation.ts), before it
 * follows any folder: `npm start` used to start a process of its own for it, which took 1.2 s of
 * every first start. Returns the lines to log.
 */
export async function seedDemoOnce(): Promise<{ said: string[]; warnings: string[] }> {
  const client = await db();
  if (await client.appSetting.findUnique({ where: { key: SEEDED_KEY } })) return { said: [], warnings: [] };
  // A database that holds threads stays as it is unless asked: nothing to look at or say at each restart.
  const { setting, warning } = parseDemoDataSetting(process.env.THREADLINE_DEMO_DATA);
  if (setting !== "on" && (await client.thread.count()) > 0) return { said: [], warnings: warning ? [warning] : [] };
  const decision = await decideDemoSeeding({
    demoData: process.env.THREADLINE_DEMO_DATA,
    sources: serverSettings().sources,
    threads: () => client.thread.count(),
  });
  const warnings = decision.warning ? [decision.warning] : [];
  if (!decision.seed) return { said: [decision.reason], warnings };
  const seeded = await seedDemoThreads();
  return { said: [decision.reason, `seeded demo data: ${seeded.threads} threads, ${seeded.turns} turns`], warnings };
}
