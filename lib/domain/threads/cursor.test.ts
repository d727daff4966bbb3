import { describe, expect, it } from "vitest";
import { decodeCursor, decodeSearchCursor, encodeCursor, encodeSearchCursor } from "./cursor";

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

describe("search cursor", () => {
  it.each([
    { score: -1.2345678901234567e-7, seq: 42 },
    { score: 0, seq: 1 },
    { score: -0.75, seq: 999_999_999 },
  ])("round-trips %j exactly", (cursor) => {
    expect(decodeSearchCursor(encodeSearchCursor(cursor))).toEqual(cursor);
  });

  it.each(
    ["", "not-a-cursor", "hit:NaN|1", "hit:Infinity|1", "hit:1.50|2", "hit:1|0", "hit:1|01", "hit:1|2|3", "turn:4"].map((text) =>
      Buffer.from(text).toString("base64url"),
    ),
  )("rejects %j", (raw) => expect(decodeSearchCursor(raw)).toBeNull());
});
