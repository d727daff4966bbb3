import { describe, expect, it } from "vitest";
import { describeTimeout, expiresAtFor, isExpired, threadNotFoundMessage } from "./expiry";

describe("expiry", () => {
  const touched = new Date("2026-01-01T00:00:00.000Z");

  it("expires the timeout after the last activity", () => {
    expect(expiresAtFor(touched, 3)?.toISOString()).toBe("2026-01-01T03:00:00.000Z");
    expect(expiresAtFor(touched, 0.5)?.toISOString()).toBe("2026-01-01T00:30:00.000Z");
  });

  it("never expires with a timeout of 0", () => {
    expect(expiresAtFor(touched, 0)).toBeNull();
    expect(isExpired(null, new Date("2100-01-01"))).toBe(false);
  });

  it("counts the expiry instant itself as expired", () => {
    const at = new Date("2026-01-01T03:00:00.000Z");
    expect(isExpired(at, new Date(at.getTime() - 1))).toBe(false);
    expect(isExpired(at, at)).toBe(true);
    expect(isExpired(at.toISOString(), new Date(at.getTime() + 1))).toBe(true);
  });

  it("describes the timeout in effect", () => {
    expect(describeTimeout(3)).toBe("3 hours");
    expect(describeTimeout(1)).toBe("1 hour");
    expect(describeTimeout(0.25)).toBe("15 minutes");
    expect(describeTimeout(0)).toBe("never");
  });

  it("says an unknown thread may have expired, naming the timeout in effect (as PAL does)", () => {
    const id = "6f1c1d1e-0000-4000-8000-000000000000";
    expect(threadNotFoundMessage(id, 5)).toBe(
      `Thread ${id} not found or may have expired: threads expire after 5 hours without activity (CONVERSATION_TIMEOUT_HOURS).`,
    );
    expect(threadNotFoundMessage(id, 0.5)).toContain("threads expire after 30 minutes without activity");
  });

  it("does not blame expiry when threads never expire", () => {
    const message = threadNotFoundMessage("6f1c1d1e-0000-4000-8000-000000000000", 0);
    expect(message).toBe(
      "Thread 6f1c1d1e-0000-4000-8000-000000000000 not found: threads do not expire here (CONVERSATION_TIMEOUT_HOURS is 0), so it was never stored or has been purged.",
    );
    expect(message).not.toContain("may have expired");
  });
});
