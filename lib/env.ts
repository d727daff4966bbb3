import "server-only";
import { resolveDatabaseUrl } from "@/lib/db/database-url";
import { parseFileRoots } from "@/lib/files/file-source";
import {
  maxBodyBytesRule,
  maxTurnsRule,
  parseNumericSetting,
  timeoutHoursRule,
  type ParsedSetting,
} from "@/lib/domain/settings";

/**
 * The only reader of process.env for the app. Values are read once per process; invalid numbers
 * fall back to their defaults with one logged warning each.
 */
export type ServerSettings = {
  databaseUrl: string;
  timeoutHours: ParsedSetting;
  maxTurns: ParsedSetting;
  maxBodyBytes: ParsedSetting;
  /** Folders budget previews may read files from (THREADLINE_FILE_ROOTS); empty by default. */
  fileRoots: string[];
};

let cached: ServerSettings | undefined;

export function serverSettings(): ServerSettings {
  if (cached) return cached;
  const settings: ServerSettings = {
    databaseUrl: resolveDatabaseUrl(process.env.DATABASE_URL),
    timeoutHours: parseNumericSetting(process.env.CONVERSATION_TIMEOUT_HOURS, timeoutHoursRule),
    maxTurns: parseNumericSetting(process.env.MAX_CONVERSATION_TURNS, maxTurnsRule),
    maxBodyBytes: parseNumericSetting(process.env.THREADLINE_MAX_BODY_BYTES, maxBodyBytesRule),
    fileRoots: parseFileRoots(process.env.THREADLINE_FILE_ROOTS),
  };
  for (const setting of [settings.timeoutHours, settings.maxTurns, settings.maxBodyBytes]) {
    if (setting.warning) console.warn(`[threadline] ${setting.warning}`);
  }
  cached = settings;
  return settings;
}

/** Tests change env between cases; production reads it once. */
export function resetServerSettingsForTests(): void {
  cached = undefined;
}
