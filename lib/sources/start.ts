import "server-only";
import { serverSettings } from "@/lib/env";
import { sourceSync } from "./sync";

/**
 * Called once when the server starts (instrumentation.ts): the first sync of the followed folders
 * runs in the background, so the server answers at once and the status shows its progress.
 */
export function startFollowingSources(): void {
  const { origin, folders } = serverSettings().sources;
  if (origin === "off") return;
  const which = origin === "default" ? "THREADLINE_SOURCES unset: the default folders, those that exist" : "THREADLINE_SOURCES";
  console.log(`[threadline] following ${folders.join(", ")} for agent transcripts (${which}); the first sync runs in the background`);
  sourceSync().start();
}
