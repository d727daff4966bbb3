const HOUR_MS = 3_600_000;

/** When a thread touched at `touchedAt` expires; null when the timeout is 0 (never). */
export function expiresAtFor(touchedAt: Date, timeoutHours: number): Date | null {
  if (timeoutHours <= 0) return null;
  return new Date(touchedAt.getTime() + timeoutHours * HOUR_MS);
}

export function isExpired(expiresAt: Date | string | null, now: Date): boolean {
  if (expiresAt === null) return false;
  return new Date(expiresAt).getTime() <= now.getTime();
}

/** "3 hours", "90 minutes", "never": how the timeout in effect is described in messages. */
export function describeTimeout(timeoutHours: number): string {
  if (timeoutHours <= 0) return "never";
  if (Number.isInteger(timeoutHours)) return `${timeoutHours} hour${timeoutHours === 1 ? "" : "s"}`;
  return `${Math.round(timeoutHours * 60)} minutes`;
}
