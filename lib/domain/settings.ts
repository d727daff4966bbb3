/** Defaults as in PAL's conversation_memory.py. */
const DEFAULT_TIMEOUT_HOURS = 3;
const DEFAULT_MAX_TURNS = 50;
const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
/**
 * Imports: the longest line read, and the largest file read whole (lib/importers/long-lines.ts).
 * A line is decoded and parsed on the event loop, twice for a Claude Code session: 16 MB holds a
 * pasted screenshot twice over (the API takes images up to 5 MB) and pauses the loop about 0.1 s
 * a pass (0.4-0.6 s on a loaded machine); 60 MB paused it 0.4 s a pass, 3 s loaded.
 */
export const DEFAULT_MAX_LINE_MB = 16;
export const DEFAULT_MAX_DOCUMENT_MB = 64;
/** V8 makes no string longer than about 512 MB: a line or document past that could never be read. */
const MAX_IMPORT_LIMIT_MB = 512;

type SettingSource = "env" | "default";
export type ParsedSetting = { value: number; source: SettingSource; warning?: string };

type Rule = { name: string; fallback: number; integer: boolean; allowZero: boolean; unit: string; max?: number };

/**
 * Parses a numeric env setting. An invalid value falls back to the default with a warning for the
 * log (as PAL does), so a typo never stops the server.
 */
export function parseNumericSetting(raw: string | undefined, rule: Rule): ParsedSetting {
  const text = raw?.trim();
  if (!text) return { value: rule.fallback, source: "default" };
  const value = Number(text);
  // Integers must be safe ones: MAX_CONVERSATION_TURNS=1e20 is an integer to JavaScript, but the
  // database refuses it and every append failed.
  const valid = Number.isFinite(value) && (rule.integer ? Number.isSafeInteger(value) : true) && (rule.allowZero ? value >= 0 : value > 0);
  const tooLarge = valid && rule.max !== undefined && value > rule.max;
  if (!valid || tooLarge) {
    const limit = tooLarge ? ` (at most ${rule.max} ${rule.unit})` : "";
    return {
      value: rule.fallback,
      source: "default",
      warning: `Invalid ${rule.name} value ('${text}'), using default of ${rule.fallback} ${rule.unit}${limit}`,
    };
  }
  return { value, source: "env" };
}

export const timeoutHoursRule: Rule = {
  name: "CONVERSATION_TIMEOUT_HOURS",
  fallback: DEFAULT_TIMEOUT_HOURS,
  integer: false,
  allowZero: true, // 0 = threads never expire
  unit: "hours",
  // About 114 years. Far larger values (1e10) put expiry dates past what a Date can hold, and
  // every write failed on the Invalid Date; "never" is 0.
  max: 1_000_000,
};

export const maxTurnsRule: Rule = {
  name: "MAX_CONVERSATION_TURNS",
  fallback: DEFAULT_MAX_TURNS,
  integer: true,
  allowZero: false,
  unit: "turns",
};

export const maxBodyBytesRule: Rule = {
  name: "THREADLINE_MAX_BODY_BYTES",
  fallback: DEFAULT_MAX_BODY_BYTES,
  integer: true,
  allowZero: false,
  unit: "bytes",
};

export const maxLineMbRule: Rule = {
  name: "THREADLINE_MAX_LINE_MB",
  fallback: DEFAULT_MAX_LINE_MB,
  integer: false,
  allowZero: false,
  unit: "MB",
  max: MAX_IMPORT_LIMIT_MB,
};

export const maxDocumentMbRule: Rule = {
  name: "THREADLINE_MAX_DOCUMENT_MB",
  fallback: DEFAULT_MAX_DOCUMENT_MB,
  integer: false,
  allowZero: false,
  unit: "MB",
  max: MAX_IMPORT_LIMIT_MB,
};
