import { z } from "zod";

/*
 * Numbers from callers, read one strict way. Text (a query or path parameter, a form field) must
 * be written in plain decimal digits: Number() and z.coerce also take "0x10" as 16, "1e0" as 1,
 * " 1" and "" as numbers, so a value could mean one thing here and another to a proxy, a log
 * reader or a cache in front. Leading zeros are refused as well: some readers take "010" as octal
 * 8, and one spelling per number leaves nothing to interpret.
 */

/**
 * The largest whole number a caller may give where no smaller bound applies: the databases' integer column (Prisma's Int).
 * @internal exported for its tests
 */
export const MAX_WHOLE_NUMBER = 2_147_483_647;

/** @internal exported for its tests */
export const NOT_DECIMAL = "must be a whole number written in decimal digits";
/** @internal exported for its tests */
export const LEADING_ZERO = "must be written without leading zeros (10, not 010)";

/** A whole number from `min` to `max` as a JSON number: request bodies and MCP tool arguments. */
export function wholeNumber(min: number, max = MAX_WHOLE_NUMBER) {
  // The bounds before int(): 1e20 is first of all too large (int() alone calls it not whole).
  return z
    .number({ error: "must be a number" })
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .int("must be a whole number");
}

/**
 * A whole number from `min` (0 or more: no parameter takes a negative one) to `max`, written in
 * decimal digits: no sign, space, fraction, exponent or "0x", no leading zero ("0" itself is fine).
 * A JSON number is checked as wholeNumber checks it: MCP tools hand theirs to the same schemas.
 */
export function decimalInteger(min: number, max = MAX_WHOLE_NUMBER) {
  if (min < 0) throw new Error("decimalInteger: ranges start at 0 or more");
  return z.preprocess(
    (value, ctx) => {
      if (typeof value !== "string") return value;
      const read = readDecimal(value, min, max);
      if (typeof read === "number") return read;
      ctx.addIssue({ code: "custom", message: read });
      return z.NEVER;
    },
    wholeNumber(min, max),
  );
}

/** The number `text` writes, or what is wrong with it. */
function readDecimal(text: string, min: number, max: number): number | string {
  if (/^-[0-9]+$/.test(text)) return `must be at least ${min}`;
  // ASCII digits only: \d would not take other scripts' digits either, but say so plainly.
  if (!/^[0-9]+$/.test(text)) return NOT_DECIMAL;
  if (text.length > 1 && text.startsWith("0")) return LEADING_ZERO;
  // Past 15 digits a double no longer holds every whole number; every bound here is far below.
  if (text.length > 15) return `must be at most ${max}`;
  return Number(text);
}

const DECIMAL_AMOUNT = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/**
 * An amount from `min` to `max` (a price) written in decimal digits with an optional fraction
 * ("0.5", "12"): the same rules as decimalInteger, with a point. A JSON number is taken as it is.
 */
export function decimalAmount(min: number, max: number) {
  return z.preprocess(
    (value, ctx) => {
      if (typeof value !== "string") return value;
      if (DECIMAL_AMOUNT.test(value) && value.length <= 30) return Number(value);
      ctx.addIssue({ code: "custom", message: "must be a number written in decimal digits, such as 0.5" });
      return z.NEVER;
    },
    z.number({ error: "must be a number" }).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );
}
