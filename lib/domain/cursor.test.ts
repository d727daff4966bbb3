import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";

describe("list cursor", () => {
  it("round-trips a keyset position", () => {
    const cursor = { lastUpdatedAt: new Date("2026-03-04T05:06:07.089Z"), id: "6f1c0a8e-1111-4222-8333-944445555666" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each(["", "not-a-cursor", Buffer.from("2026-13-45|x").toString("base64url"), Buffer.from("a|b|c").toString("base64url")])(
    "rejects %j",
    (raw) => expect(decodeCursor(raw)).toBeNull(),
  );
});
