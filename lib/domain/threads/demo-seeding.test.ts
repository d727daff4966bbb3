import { describe, expect, it } from "vitest";
import { demoSeeding, parseDemoDataSetting } from "./demo-seeding";

describe("parseDemoDataSetting", () => {
  it("reads on and off in any case, unset as auto, and anything else as auto with a warning", () => {
    expect(parseDemoDataSetting(undefined)).toEqual({ setting: "auto", warning: null });
    expect(parseDemoDataSetting("  ")).toEqual({ setting: "auto", warning: null });
    expect(parseDemoDataSetting(" ON ")).toEqual({ setting: "on", warning: null });
    expect(parseDemoDataSetting("off")).toEqual({ setting: "off", warning: null });
    const odd = parseDemoDataSetting("yes");
    expect(odd.setting).toBe("auto");
    expect(odd.warning).toMatch(/THREADLINE_DEMO_DATA: ignored "yes"/);
  });
});

describe("demoSeeding", () => {
  it("seeds for someone without sessions or threads", () => {
    expect(demoSeeding({ setting: "auto", session: null, threads: 0 }).seed).toBe(true);
  });

  it("does not when a followed folder holds a session, naming it, or when the database has threads", () => {
    const withSession = demoSeeding({ setting: "auto", session: "/home/me/.claude/projects/-x/a.jsonl", threads: 0 });
    expect(withSession.seed).toBe(false);
    expect(withSession.reason).toContain("/home/me/.claude/projects/-x/a.jsonl");
    expect(demoSeeding({ setting: "auto", session: null, threads: 3 })).toEqual({
      seed: false,
      reason: "not seeding the demo threads: the database already holds 3 threads",
    });
  });

  it("obeys on and off whatever it finds", () => {
    expect(demoSeeding({ setting: "on", session: "/s.jsonl", threads: 9 }).seed).toBe(true);
    expect(demoSeeding({ setting: "off", session: null, threads: 0 }).seed).toBe(false);
  });
});
