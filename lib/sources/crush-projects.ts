import "server-only";
// Crush keeps each project's sessions in the project's own .crush folder (crush.db), not under the
// home folder; it lists the projects it ran in in projects.json in its data folder. Those folders
// are followed with the default ones (lib/sources/sync-state.ts followed).
import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crushProjectFolders } from "@/lib/domain/sources/agent-folders";

/** More than any list of projects: a larger file is not Crush's list, and is not read. */
const MAX_PROJECTS_BYTES = 1024 * 1024;

/** Crush's data folder, as Crush finds it: CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush, else ~/.local/share/crush. */
function crushDataFolder(): string {
  if (process.env.CRUSH_GLOBAL_DATA) return process.env.CRUSH_GLOBAL_DATA;
  return path.join(process.env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share"), "crush");
}

/** The .crush folders of the projects Crush lists (none when it lists none, or its list cannot be read). */
export function listedCrushProjects(): string[] {
  const file = path.join(crushDataFolder(), "projects.json");
  try {
    if (statSync(file).size > MAX_PROJECTS_BYTES) return [];
    return crushProjectFolders(JSON.parse(readFileSync(file, "utf8")) as unknown);
  } catch {
    return []; // no Crush, or a list being written: the next sync looks again
  }
}
