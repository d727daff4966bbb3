import "server-only";
import { demoSeeding, parseDemoDataSetting, type DemoSeeding } from "@/lib/domain/threads/demo-seeding";
import type { SourcesSetting } from "@/lib/domain/sources/sources";
import { transcriptFiles } from "@/lib/imports/transcript-files";

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

/** Whether `npm start` seeds the demo threads (lib/domain/threads/demo-seeding.ts), and why, with a warning for a THREADLINE_DEMO_DATA it did not understand. */
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
