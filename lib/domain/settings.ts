/** Defaults as in PAL's conversation_memory.py. */
export const DEFAULT_TIMEOUT_HOURS = 3;
export const DEFAULT_MAX_TURNS = 50;
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;

export type SettingSource = "env" | "default";
export type ParsedSetting = { value: number; source: SettingSource; warning?: string };

type Rule = { name: string; fallback: number; integer: boolean; allowZero: boolean; unit: string };

/**
 * Parses a numeric env setting. An invalid value falls back to the default with a warning for the
 * log (as PAL does), so a typo never stops the server.
 */
export function parseNumericSetting(raw: string | undefined, rule: Rule): ParsedSetting {
  const text = raw?.trim();
  if (!text) return { value: rule.fallback, source: "default" };
  const value = Number(text);
  const valid =
    Number.isFinite(value) && (rule.integer ? Number.isInteger(value) : true) && (rule.allowZero ? value >= 0 : value > 0);
  if (!valid) {
    return {
      value: rule.fallback,
      source: "default",
      warning: `Invalid ${rule.name} value ('${text}'), using default of ${rule.fallback} ${rule.unit}`,
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
