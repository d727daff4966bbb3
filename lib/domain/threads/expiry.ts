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

/**
 * What an unknown thread id answers, as PAL words it (the thread "was not found or has expired"),
 * naming the timeout in effect; with expiry off (0), expiry is not offered as the reason.
 */
export function threadNotFoundMessage(id: string, timeoutHours: number): string {
  if (timeoutHours <= 0)
    return `Thread ${id} not found: threads do not expire here (CONVERSATION_TIMEOUT_HOURS is 0), so it was never stored or has been purged.`;
  return `Thread ${id} not found or may have expired: threads expire after ${describeTimeout(timeoutHours)} without activity (CONVERSATION_TIMEOUT_HOURS).`;
}
