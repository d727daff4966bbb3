/** The one UUID pattern (both cases spelled out, so JSON Schema can carry it without a flag). */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Any RFC 4122-shaped UUID (PAL writes v4, Codex v7). Ids are compared in lower case. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}

/** Lower-cased id, or null when the value is not a UUID (callers answer 404 without a query). */
export function normalizeId(value: unknown): string | null {
  return isUuid(value) ? value.toLowerCase() : null;
}
