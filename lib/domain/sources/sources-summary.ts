/**
 * The followed sources' status in one line, for the import page (the Sources page shows every
 * folder): how many folders, the counts of the last sync (or the one running) summed over them,
 * and what is happening now.
 */
import type { SourcesStatus } from "./sources";

export type SourcesSummary =
  | { kind: "off" }
  | { kind: "none-found" }
  | {
      kind: "following";
      folders: number;
      filesSeen: number;
      /** While a full sync runs: the files its walks found, which `filesSeen` counts up to (null until every walk has ended). */
      filesFound: number | null;
      imported: number;
      failed: number;
      /** Entries left unopened (links out of their folder, special files). */
      skipped: number;
      /** Folders that could not be read or watched, and those that do not exist (yet). */
      errors: number;
      missing: number;
      /** syncing: a sync runs now; watching: every folder found is watched; idle: synced, not watched (or not synced yet). */
      activity: "syncing" | "watching" | "idle";
      heldElsewhere: boolean;
    };

export function summarizeSources(status: SourcesStatus): SourcesSummary {
  if (status.origin === "off") return { kind: "off" };
  if (status.folders.length === 0) return { kind: "none-found" };
  const sum = (key: "filesSeen" | "imported" | "failed" | "skipped") => status.folders.reduce((n, folder) => n + folder[key], 0);
  const present = status.folders.filter((folder) => folder.state !== "missing");
  const syncing = status.syncing || status.folders.some((folder) => folder.state === "syncing");
  const walking = status.folders.filter((folder) => folder.state === "syncing");
  const filesFound =
    walking.length > 0 && walking.every((folder) => folder.filesFound !== null)
      ? status.folders.reduce((n, folder) => n + (folder.state === "syncing" ? folder.filesFound! : folder.filesSeen), 0)
      : null;
  return {
    kind: "following",
    folders: status.folders.length,
    filesSeen: sum("filesSeen"),
    filesFound,
    imported: sum("imported"),
    failed: sum("failed"),
    skipped: sum("skipped"),
    errors: status.folders.filter((folder) => folder.state === "error").length,
    missing: status.folders.length - present.length,
    activity: syncing ? "syncing" : present.length > 0 && present.every((folder) => folder.state === "watching") ? "watching" : "idle",
    heldElsewhere: status.heldElsewhere,
  };
}
