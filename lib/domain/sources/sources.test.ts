import { describe, expect, it } from "vitest";
import { normalizePath, parseSourcesSetting } from "./sources";

const home = "/home/ada";

describe("parseSourcesSetting (THREADLINE_SOURCES)", () => {
  it("unset or blank: the agents' default folders under the home folder", () => {
    const unset = parseSourcesSetting(undefined, { home, postgres: false });
    expect(unset).toMatchObject({ origin: "default", warnings: [] });
    expect(parseSourcesSetting("  ", { home, postgres: false })).toEqual(unset);
    expect(unset.folders.slice(0, 7)).toEqual([
      "/home/ada/.claude/projects",
      "/home/ada/.codex/sessions",
      "/home/ada/.gemini/tmp",
      "/home/ada/.local/share/opencode",
      "/home/ada/.pi/agent/sessions",
      "/home/ada/.copilot/session-state",
      "/home/ada/.copilot/history-session-state",
    ]);
    expect(unset.folders).toEqual(
      expect.arrayContaining([
        "/home/ada/.config/Code/User/globalStorage",
        "/home/ada/.config/Cursor/User/globalStorage",
        "/home/ada/.config/Cursor/User/workspaceStorage",
        "/home/ada/Library/Application Support/Cursor/User/globalStorage",
        "/home/ada/.cline/data/tasks",
        "/home/ada/.local/share/kilo",
      ]),
    );
    expect(new Set(unset.folders).size).toBe(unset.folders.length);
  });

  it("unset on PostgreSQL: off; an explicit list is still followed there", () => {
    expect(parseSourcesSetting(undefined, { home, postgres: true })).toEqual({ origin: "off", folders: [], warnings: [] });
    expect(parseSourcesSetting("/srv/transcripts", { home, postgres: true })).toMatchObject({
      origin: "setting",
      folders: ["/srv/transcripts"],
    });
  });

  it("off, in any case", () => {
    expect(parseSourcesSetting("off", { home, postgres: false })).toEqual({ origin: "off", folders: [], warnings: [] });
    expect(parseSourcesSetting(" OFF ", { home, postgres: false }).origin).toBe("off");
  });

  it("a :-separated list: ~ expanded, paths normalised, duplicates and empty entries dropped", () => {
    expect(parseSourcesSetting("~/.claude/projects::/srv/a/../b/:/srv/b", { home, postgres: false })).toEqual({
      origin: "setting",
      folders: ["/home/ada/.claude/projects", "/srv/b"],
      warnings: [],
    });
  });

  it("entries that are not absolute folders are ignored with a warning, never a crash", () => {
    const parsed = parseSourcesSetting("relative/dir:/ok:~other", { home, postgres: false });
    expect(parsed.folders).toEqual(["/ok"]);
    expect(parsed.warnings).toHaveLength(2);
    expect(parsed.warnings[0]).toContain('"relative/dir"');
    // Nothing valid left: nothing followed.
    expect(parseSourcesSetting("nope", { home, postgres: false })).toMatchObject({ origin: "off", folders: [] });
  });

  it("normalizePath", () => {
    expect(normalizePath("/a//b/./c/../d/")).toBe("/a/b/d");
    expect(normalizePath("/../x")).toBe("/x");
  });
});
