import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { queryFlag, queryObject } from "./query";

function refusal(search: string): AppError {
  try {
    queryObject(new URLSearchParams(search));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${search} was accepted`);
}

describe("queryObject", () => {
  it("answers each parameter's value", () => {
    expect(queryObject(new URLSearchParams("from=1&limit=2&q=a+b&empty="))).toEqual({ from: "1", limit: "2", q: "a b", empty: "" });
    expect(queryObject(new URLSearchParams(""))).toEqual({});
  });

  it("refuses a parameter given twice, numeric or not, naming it", () => {
    const error = refusal("from=1&from=2");
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe("from: is given 2 times: give it once");
    expect(refusal("q=a&q=a").message).toBe("q: is given 2 times: give it once");
    expect(refusal("limit=&limit=").message).toMatch(/^limit:/);
  });

  it("names every parameter given more than once", () => {
    const error = refusal("a=1&b=1&a=2&c=1&b=2&a=3");
    expect(error.message).toBe("a: is given 3 times: give it once (and 1 more)");
    expect(error.details).toEqual([
      { field: "a", message: "is given 3 times: give it once" },
      { field: "b", message: "is given 2 times: give it once" },
    ]);
  });

  it("keeps a __proto__ parameter an own key (for the schema to refuse or drop), not the prototype", () => {
    const query = queryObject(new URLSearchParams("__proto__=x"));
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.keys(query)).toEqual(["__proto__"]);
  });
});

describe("queryFlag", () => {
  it("reads 1, true, 0 and false, and the fallback when absent", () => {
    const flag = queryFlag();
    expect([flag.parse("1"), flag.parse("true"), flag.parse("0"), flag.parse("false"), flag.parse(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(queryFlag(true).parse(undefined)).toBe(true);
  });

  it.each(["yes", "", "TRUE", " 1", "2"])("refuses %j", (value) => {
    const parsed = queryFlag().safeParse(value);
    expect(parsed.error?.issues[0]?.message).toBe("must be 1, true, 0 or false");
  });
});
