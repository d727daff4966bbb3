const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any RFC 4122-shaped UUID (PAL writes v4, Codex v7). Ids are compared in lower case. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}

/** Lower-cased id, or null when the value is not a UUID (callers answer 404 without a query). */
export function normalizeId(value: unknown): string | null {
  return isUuid(value) ? value.toLowerCase() : null;
}
