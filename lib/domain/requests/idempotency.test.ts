import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import {
  canonicalJson,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_PENDING_ABANDONED_MS,
  idempotencyRequestText,
  idempotencyVerdict,
  parseIdempotencyKey,
} from "./idempotency";

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("parseIdempotencyKey", () => {
  it("takes 1-255 printable ASCII characters as they are", () => {
    expect(parseIdempotencyKey("a")).toBe("a");
    expect(parseIdempotencyKey(" !~ key with spaces ")).toBe(" !~ key with spaces ");
    expect(parseIdempotencyKey("k".repeat(255))).toBe("k".repeat(255));
  });

  it("refuses anything else with a 400 naming the field", () => {
    for (const [raw, why] of [
      ["", "must not be empty"],
      ["k".repeat(256), "must be at most 255 characters"],
      ["caf\u00e9", "must be printable ASCII"],
      ["line\nbreak", "must be printable ASCII"],
      ["\u0000", "must be printable ASCII"],
      [42, "must be a string"],
    ] as const) {
      const error = refusal(() => parseIdempotencyKey(raw, "idempotencyKey"));
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(new RegExp(`^idempotencyKey: ${why}`));
      expect(error.details).toEqual([{ field: "idempotencyKey", message: expect.stringContaining(why) }]);
    }
  });
});

describe("request hashes", () => {
  it("ignore key order at every level, and tell bodies and operations apart", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    const body = { role: "user", content: "hi", files: ["a.ts"] };
    const same = { files: ["a.ts"], content: "hi", role: "user" };
    expect(idempotencyRequestText("append_turn", body)).toBe(idempotencyRequestText("append_turn", same));
    expect(idempotencyRequestText("append_turn", body)).not.toBe(idempotencyRequestText("append_turn", { ...body, content: "hi!" }));
    expect(idempotencyRequestText("append_turn", body)).not.toBe(idempotencyRequestText("continue", body));
    // Array order is part of the request.
    expect(idempotencyRequestText("append_turn", { files: ["a", "b"] })).not.toBe(
      idempotencyRequestText("append_turn", { files: ["b", "a"] }),
    );
  });
});

describe("idempotencyVerdict", () => {
  const now = new Date("2026-01-02T00:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it("replays a finished request, and answers 409 while it runs or for another request", () => {
    expect(idempotencyVerdict({ requestHash: "h", state: "done", createdAt: ago(1_000) }, "h", "k", now)).toBe("replay");
    expect(
      refusal(() => idempotencyVerdict({ requestHash: "h", state: "pending", createdAt: ago(1_000) }, "h", "k", now)).details,
    ).toMatchObject({
      reason: "in_progress",
    });
    for (const state of ["pending", "done"]) {
      const error = refusal(() => idempotencyVerdict({ requestHash: "other", state, createdAt: ago(1_000) }, "h", "k", now));
      expect(error.code).toBe("conflict");
      expect(error.details).toMatchObject({ field: "Idempotency-Key", reason: "different_request" });
    }
  });

  it("lets a key be taken over after 24 hours, and a pending one once it was abandoned", () => {
    expect(idempotencyVerdict({ requestHash: "other", state: "done", createdAt: ago(IDEMPOTENCY_KEY_TTL_MS) }, "h", "k", now)).toBe(
      "takeOver",
    );
    expect(idempotencyVerdict({ requestHash: "h", state: "done", createdAt: ago(IDEMPOTENCY_KEY_TTL_MS - 1) }, "h", "k", now)).toBe(
      "replay",
    );
    expect(
      idempotencyVerdict({ requestHash: "h", state: "pending", createdAt: ago(IDEMPOTENCY_PENDING_ABANDONED_MS) }, "h", "k", now),
    ).toBe("takeOver");
    // An abandoned claim of another request is still another request.
    expect(
      refusal(() =>
        idempotencyVerdict({ requestHash: "other", state: "pending", createdAt: ago(IDEMPOTENCY_PENDING_ABANDONED_MS) }, "h", "k", now),
      ).code,
    ).toBe("conflict");
  });
});
