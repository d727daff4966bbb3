import "server-only";
import { existsSync } from "node:fs";
import { serverSettings } from "@/lib/env";
import { sourceSync } from "./sync";

/**
 * Called once when the server starts (instrumentation.ts): the first sync of the followed folders
 * runs in the background, so the server answers at once and the status shows its progress.
 * Resolves when that sync has ended (at once when nothing is followed); never rejects.
 */
export async function startFollowingSources(): Promise<void> {
  const { origin, folders } = serverSettings().sources;
  if (origin === "off") return;
  // Unset, only the default folders that exist are followed (one made later is found by a later sync).
  const shown = origin === "default" ? folders.filter((folder) => existsSync(folder)) : folders;
  if (shown.length === 0) {
    console.log(`[threadline] no agent folder to follow (THREADLINE_SOURCES unset, and none of ${folders.join(", ")} exists)`);
  } else {
    const which = origin === "default" ? "THREADLINE_SOURCES unset: the default folders that exist" : "THREADLINE_SOURCES";
    console.log(`[threadline] following ${shown.join(", ")} for agent transcripts (${which}); the first sync runs in the background`);
  }
  // The status tells how it went; a failure is the sync's to report, not the caller's.
  await sourceSync()
    .sync()
    .catch(() => undefined);
}
