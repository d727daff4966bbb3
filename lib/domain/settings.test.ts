import { describe, expect, it } from "vitest";
import { maxTurnsRule, parseNumericSetting, timeoutHoursRule } from "./settings";

describe("parseNumericSetting", () => {
  it("uses the default when unset or blank", () => {
    expect(parseNumericSetting(undefined, timeoutHoursRule)).toEqual({ value: 3, source: "default" });
    expect(parseNumericSetting("  ", maxTurnsRule)).toEqual({ value: 50, source: "default" });
  });

  it("reads valid values from env", () => {
    expect(parseNumericSetting(" 12 ", maxTurnsRule)).toEqual({ value: 12, source: "env" });
    expect(parseNumericSetting("0", timeoutHoursRule)).toEqual({ value: 0, source: "env" });
    expect(parseNumericSetting("0.5", timeoutHoursRule)).toEqual({ value: 0.5, source: "env" });
  });

  it.each([
    ["abc", maxTurnsRule],
    ["0", maxTurnsRule],
    ["-5", maxTurnsRule],
    ["2.5", maxTurnsRule],
    ["-1", timeoutHoursRule],
    ["Infinity", timeoutHoursRule],
    ["1e20", maxTurnsRule],
  ])("falls back to the default with a warning for %s", (raw, rule) => {
    const parsed = parseNumericSetting(raw, rule);
    expect(parsed.value).toBe(rule.fallback);
    expect(parsed.source).toBe("default");
    expect(parsed.warning).toBe(`Invalid ${rule.name} value ('${raw}'), using default of ${rule.fallback} ${rule.unit}`);
  });

  it("refuses a timeout beyond 1,000,000 hours, which made expiry an Invalid Date", () => {
    expect(parseNumericSetting("1000000", timeoutHoursRule)).toEqual({ value: 1_000_000, source: "env" });
    expect(parseNumericSetting("1e10", timeoutHoursRule)).toEqual({
      value: 3,
      source: "default",
      warning: "Invalid CONVERSATION_TIMEOUT_HOURS value ('1e10'), using default of 3 hours (at most 1000000 hours)",
    });
  });
});
