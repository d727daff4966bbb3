import { describe, expect, it } from "vitest";
import { folderAgentLabel } from "@/lib/domain/display/source";
import { AGENT_FOLDERS, AGENT_LOCATIONS, crushProjectFolders } from "./agent-folders";

describe("the agents' folders", () => {
  it("reads Crush's list of projects: each data_dir once, absolute ones only", () => {
    expect(
      crushProjectFolders({
        projects: [
          { path: "/home/ada/code/app", data_dir: "/home/ada/code/app/.crush", last_accessed: "2026-01-01T00:00:00Z" },
          { path: "/home/ada/code/app", data_dir: "/home/ada/code/app/.crush/" },
          { path: "relative", data_dir: "relative/.crush" },
          { path: "/x", data_dir: 42 },
          "not a project",
        ],
      }),
    ).toEqual(["/home/ada/code/app/.crush"]);
    for (const notAList of [null, [], { projects: "none" }, "text", 3]) expect(crushProjectFolders(notAList)).toEqual([]);
  });

  it("names the agents beside a followed folder, the editors' storage folders with every agent found there", () => {
    expect(folderAgentLabel("/home/ada/.claude/projects")).toBe("Claude Code");
    expect(folderAgentLabel("/home/ada/.config/Code/User/globalStorage/")).toBe("Cline, Roo Code, Kilo Code");
    expect(folderAgentLabel("/home/ada/.config/Cursor/User/globalStorage")).toBe("Cursor, Cline, Roo Code, Kilo Code");
    expect(folderAgentLabel("/home/ada/code/app/.crush")).toBe("Crush");
    expect(folderAgentLabel("/home/ada/notes")).toBeNull();
  });

  it("says where every agent with default folders keeps its sessions", () => {
    const located = new Set(AGENT_LOCATIONS.map((l) => l.source));
    for (const { sources } of AGENT_FOLDERS) for (const source of sources) expect(located.has(source), source).toBe(true);
  });
});
