/**
 * A Factory Droid session's side file, by path alone: `<id>.settings.json` beside `<id>.jsonl`
 * holds the session's model and token totals (docs/formats.md §19, "Factory Droid"), so a change
 * to it is a change of the session. Pure and free of imports.
 */

const SETTINGS = /\.settings\.json$/i;

/** `…/<id>.jsonl` -> `…/<id>.settings.json`; null for a name that is not a .jsonl file. */
export function droidSettingsPath(transcriptPath: string): string | null {
  return /\.jsonl$/i.test(transcriptPath) ? transcriptPath.replace(/\.jsonl$/i, ".settings.json") : null;
}

/** `…/<id>.settings.json` -> `…/<id>.jsonl`, the session it belongs to; null for any other name. */
export function droidSessionOfSettings(settingsPath: string): string | null {
  return SETTINGS.test(settingsPath) ? settingsPath.replace(SETTINGS, ".jsonl") : null;
}

/** Whether a transcript is in Droid's own sessions folder (~/.factory/sessions), where its settings are looked for on every walk. */
export function inDroidSessions(transcriptPath: string): boolean {
  return /(^|[\\/])\.factory[\\/]sessions[\\/]/.test(transcriptPath) && /\.jsonl$/i.test(transcriptPath);
}
