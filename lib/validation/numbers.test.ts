import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decimalAmount, decimalInteger, LEADING_ZERO, MAX_WHOLE_NUMBER, NOT_DECIMAL, wholeNumber } from "./numbers";

const messageOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: parsed.data } : parsed.error.issues[0]!.message;
};

describe("decimalInteger", () => {
  const limit = decimalInteger(1, 500);

  it("reads plain decimal digits", () => {
    expect(limit.parse("1")).toBe(1);
    expect(limit.parse("42")).toBe(42);
    expect(limit.parse("500")).toBe(500);
    expect(decimalInteger(0).parse("0")).toBe(0);
  });

  it.each([
    ["hex", "0x10"],
    ["an exponent", "1e0"],
    ["a capital exponent", "1E2"],
    ["a fraction", "1.5"],
    ["a whole fraction", "2.0"],
    ["a trailing point", "2."],
    ["a plus sign", "+1"],
    ["a leading space", " 1"],
    ["a trailing space", "1 "],
    ["a trailing newline", "1\n"],
    ["empty", ""],
    ["a word", "ten"],
    ["binary", "0b11"],
    ["octal", "0o7"],
    ["digit separators", "1_000"],
    ["a thousands comma", "1,000"],
    ["Infinity", "Infinity"],
    ["NaN", "NaN"],
    ["full-width digits", "１２"],
    ["Arabic-Indic digits", "١٢"],
  ])("refuses %s (%j)", (_what, text) => {
    expect(messageOf(limit, text)).toBe(NOT_DECIMAL);
  });

  it("refuses leading zeros: one spelling per number (some readers take 010 as octal 8)", () => {
    expect(messageOf(limit, "010")).toBe(LEADING_ZERO);
    expect(messageOf(limit, "00")).toBe(LEADING_ZERO);
    expect(messageOf(decimalInteger(0), "00")).toBe(LEADING_ZERO);
  });

  it("refuses a minus sign as below the range", () => {
    expect(messageOf(limit, "-1")).toBe("must be at least 1");
    expect(messageOf(decimalInteger(0), "-0")).toBe("must be at least 0");
    expect(() => decimalInteger(-1)).toThrow(/0 or more/);
  });

  it("holds the range's bounds, also past what a double holds exactly", () => {
    expect(messageOf(limit, "0")).toBe("must be at least 1");
    expect(messageOf(limit, "501")).toBe("must be at most 500");
    expect(messageOf(limit, "99999999999999999999")).toBe("must be at most 500");
    expect(messageOf(limit, "9".repeat(400))).toBe("must be at most 500");
    const unbounded = decimalInteger(0);
    expect(unbounded.parse(String(MAX_WHOLE_NUMBER))).toBe(MAX_WHOLE_NUMBER);
    expect(messageOf(unbounded, String(MAX_WHOLE_NUMBER + 1))).toBe(`must be at most ${MAX_WHOLE_NUMBER}`);
  });

  it("takes a JSON number as wholeNumber does (MCP tools share the query schemas)", () => {
    expect(limit.parse(7)).toBe(7);
    expect(messageOf(limit, 1.5)).toBe("must be a whole number");
    expect(messageOf(limit, 0)).toBe("must be at least 1");
    expect(messageOf(limit, 1e20)).toBe("must be at most 500");
    expect(messageOf(limit, true)).toBe("must be a number");
    expect(messageOf(limit, null)).toBe("must be a number");
  });

  it("is absent when optional, and takes its default", () => {
    const query = z.object({ from: decimalInteger(0).optional(), limit: decimalInteger(1, 500).default(100) });
    expect(query.parse({})).toEqual({ limit: 100 });
    expect(messageOf(query, { limit: "" })).toBe(NOT_DECIMAL);
  });
});

describe("wholeNumber", () => {
  it("refuses fractions and numbers out of range, naming the bound first", () => {
    const atTurn = wholeNumber(0);
    expect(atTurn.parse(3)).toBe(3);
    expect(messageOf(atTurn, 2.5)).toBe("must be a whole number");
    expect(messageOf(atTurn, -1)).toBe("must be at least 0");
    expect(messageOf(atTurn, 1e20)).toBe(`must be at most ${MAX_WHOLE_NUMBER}`);
    expect(messageOf(atTurn, "3")).toBe("must be a number");
    expect(messageOf(atTurn, Number.NaN)).toBe("must be a number");
  });
});

describe("decimalAmount", () => {
  const price = decimalAmount(0, 10_000);

  it("reads decimal digits with an optional fraction", () => {
    expect(price.parse("0.5")).toBe(0.5);
    expect(price.parse("12")).toBe(12);
    expect(price.parse("0")).toBe(0);
    expect(price.parse(1.25)).toBe(1.25);
  });

  it.each(["0x10", "1e3", ".5", "5.", "+1", " 1", "", "01.5", "1,5", "-1"])("refuses %j", (text) => {
    expect(messageOf(price, text)).toBe("must be a number written in decimal digits, such as 0.5");
  });

  it("holds its bounds", () => {
    expect(messageOf(price, "10000.5")).toBe("must be at most 10000");
    expect(messageOf(price, -1)).toBe("must be at least 0");
  });
});
