import { describe, expect, it } from "vitest";
import { emptyFolderStatus, type SourceFolderStatus, type SourcesStatus } from "./sources";
import { summarizeSources } from "./sources-summary";

const folder = (path: string, fields: Partial<SourceFolderStatus> = {}): SourceFolderStatus => ({ ...emptyFolderStatus(path), ...fields });
const status = (fields: Partial<SourcesStatus> = {}): SourcesStatus => ({
  origin: "setting",
  syncing: false,
  heldElsewhere: false,
  folders: [],
  ...fields,
});

describe("summarizeSources", () => {
  it("tells off from followed folders of which none exists", () => {
    expect(summarizeSources(status({ origin: "off" }))).toEqual({ kind: "off" });
    expect(summarizeSources(status({ origin: "default" }))).toEqual({ kind: "none-found" });
  });

  it("sums the counts over the folders and says what is happening", () => {
    const folders = [
      folder("/a", { state: "watching", filesSeen: 10, imported: 3, failed: 1, skipped: 2 }),
      folder("/b", { state: "watching", filesSeen: 5, imported: 5, skipped: 1 }),
    ];
    expect(summarizeSources(status({ folders }))).toEqual({
      kind: "following",
      folders: 2,
      filesSeen: 15,
      filesFound: null,
      imported: 8,
      failed: 1,
      skipped: 3,
      errors: 0,
      missing: 0,
      activity: "watching",
      heldElsewhere: false,
    });
    // A sync running, as the status says or as a folder's state does.
    expect(summarizeSources(status({ folders, syncing: true }))).toMatchObject({ activity: "syncing" });
    expect(summarizeSources(status({ folders: [folders[0]!, folder("/b", { state: "syncing" })] }))).toMatchObject({ activity: "syncing" });
  });

  it("counts up to the files a running sync's walk found, once its walk has ended", () => {
    const done = folder("/a", { state: "watching", filesSeen: 10, filesFound: 10 });
    const walking = folder("/b", { state: "syncing", filesSeen: 0 });
    expect(summarizeSources(status({ syncing: true, folders: [done, walking] }))).toMatchObject({ filesSeen: 10, filesFound: null });
    const reading = folder("/b", { state: "syncing", filesSeen: 830, filesFound: 2_800 });
    expect(summarizeSources(status({ syncing: true, folders: [done, reading] }))).toMatchObject({ filesSeen: 840, filesFound: 2_810 });
    // Synced: no "of".
    expect(summarizeSources(status({ folders: [done, { ...reading, state: "watching", filesSeen: 2_800 }] }))).toMatchObject({
      filesSeen: 2_810,
      filesFound: null,
    });
  });

  it("counts folders in error and missing ones; idle until every folder there is watched", () => {
    const summary = summarizeSources(
      status({
        folders: [
          folder("/a", { state: "watching" }),
          folder("/b", { state: "missing" }),
          folder("/c", { state: "error", error: "EACCES" }),
        ],
        heldElsewhere: true,
      }),
    );
    expect(summary).toMatchObject({ errors: 1, missing: 1, activity: "idle", heldElsewhere: true });
    expect(summarizeSources(status({ folders: [folder("/a", { state: "watching" }), folder("/b", { state: "missing" })] }))).toMatchObject({
      activity: "watching",
      missing: 1,
    });
    expect(summarizeSources(status({ folders: [folder("/a", { state: "found" })] }))).toMatchObject({ activity: "idle" });
  });
});
