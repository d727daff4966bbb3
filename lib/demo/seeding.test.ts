/**
 * The seeding decision on a real file system: a temporary HOME with the default agent folders
 * (THREADLINE_SOURCES unset), without and then with a Claude Code session in it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseSourcesSetting } from "@/lib/domain/sources/sources";
import { decideDemoSeeding, firstFollowedSession } from "./seeding";

const SESSION = "fixtures/real/claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl";
let home: string;
const defaults = () => parseSourcesSetting(undefined, { home, postgres: false });
const noThreads = async () => 0;

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "threadline-demo-home-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("decideDemoSeeding", () => {
  it("seeds when no default folder exists, or they hold no session (files of other kinds do not count)", async () => {
    expect(await decideDemoSeeding({ demoData: undefined, sources: defaults(), threads: noThreads })).toMatchObject({
      seed: true,
      warning: null,
    });
    mkdirSync(path.join(home, ".claude", "projects", "-empty"), { recursive: true });
    writeFileSync(path.join(home, ".claude", "projects", "-empty", "notes.txt"), "not a session");
    expect(await firstFollowedSession(defaults())).toBeNull();
    expect((await decideDemoSeeding({ demoData: "", sources: defaults(), threads: noThreads })).seed).toBe(true);
  });

  it("does not seed once a followed folder holds a session, unless THREADLINE_DEMO_DATA=on", async () => {
    const file = path.join(home, ".claude", "projects", "-path-to-Demo", path.basename(SESSION));
    mkdirSync(path.dirname(file), { recursive: true });
    cpSync(path.join(process.cwd(), SESSION), file);
    expect(await firstFollowedSession(defaults())).toBe(file);
    const decision = await decideDemoSeeding({ demoData: undefined, sources: defaults(), threads: noThreads });
    expect(decision.seed).toBe(false);
    expect(decision.reason).toContain(file);
    expect((await decideDemoSeeding({ demoData: "on", sources: defaults(), threads: noThreads })).seed).toBe(true);
    // Not followed (THREADLINE_SOURCES=off): the session is not looked at.
    expect(
      (await decideDemoSeeding({ demoData: undefined, sources: parseSourcesSetting("off", { home, postgres: false }), threads: noThreads }))
        .seed,
    ).toBe(true);
  });

  it("finds a session in a folder THREADLINE_SOURCES names, and never seeds with off", async () => {
    const folder = path.join(home, "elsewhere");
    const file = path.join(folder, "-proj", "s.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    cpSync(path.join(process.cwd(), SESSION), file);
    const named = parseSourcesSetting(folder, { home, postgres: false });
    expect((await decideDemoSeeding({ demoData: undefined, sources: named, threads: noThreads })).seed).toBe(false);
    expect(
      (await decideDemoSeeding({ demoData: "off", sources: parseSourcesSetting("off", { home, postgres: false }), threads: noThreads }))
        .seed,
    ).toBe(false);
  });

  it("does not seed into a database that already holds threads", async () => {
    expect((await decideDemoSeeding({ demoData: undefined, sources: defaults(), threads: async () => 2 })).seed).toBe(false);
  });
});
