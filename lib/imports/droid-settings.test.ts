// Reading a Factory Droid session's `<id>.settings.json` beside its transcript: found by name, held to
// the line limit, opened only inside the followed folder, never fatal to the import.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_LIMITS } from "@/lib/importers/long-lines";
import { droidSessionOfSettings, droidSettingsPath, inDroidSessions } from "@/lib/importers/factory-droid/paths";
import { readDroidSettings, withSettingsDigest } from "./droid-settings";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "threadline-droid-settings-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sessions = path.join(work, "sessions", "-home-dev-webapp");
mkdirSync(sessions, { recursive: true });
const transcript = (id: string) => path.join(sessions, `${id}.jsonl`);

describe("droidSettingsPath", () => {
  it("is the same stem with .settings.json, for .jsonl names only", () => {
    expect(droidSettingsPath("/s/-w/abc.jsonl")).toBe("/s/-w/abc.settings.json");
    expect(droidSettingsPath("/s/-w/abc.json")).toBeNull();
    expect(droidSessionOfSettings("/s/-w/abc.settings.json")).toBe("/s/-w/abc.jsonl");
    expect(droidSessionOfSettings("/s/-w/settings.jsonl")).toBeNull();
    expect(inDroidSessions("/home/a/.factory/sessions/-w/abc.jsonl")).toBe(true);
    expect(inDroidSessions("/home/a/.claude/projects/-w/abc.jsonl")).toBe(false);
  });
});

describe("readDroidSettings", () => {
  it("reads and parses the settings beside the transcript, with the digest of their bytes", async () => {
    const text = JSON.stringify({ model: "m", tokenUsage: { inputTokens: 1 } });
    writeFileSync(path.join(sessions, "a.settings.json"), text);
    const read = await readDroidSettings(transcript("a"), DEFAULT_IMPORT_LIMITS, work);
    expect(read).toEqual({
      value: { model: "m", tokenUsage: { inputTokens: 1 } },
      sha256: createHash("sha256").update(text).digest("hex"),
    });
  });

  it("is null when there is none", async () => {
    expect(await readDroidSettings(transcript("none"), DEFAULT_IMPORT_LIMITS, work)).toBeNull();
    expect(await readDroidSettings(path.join(work, "no-such-folder", "x.jsonl"), DEFAULT_IMPORT_LIMITS)).toBeNull();
  });

  it("leaves out, with the reason, a file that is not JSON or larger than a record may be", async () => {
    writeFileSync(path.join(sessions, "b.settings.json"), "{not json");
    expect(await readDroidSettings(transcript("b"), DEFAULT_IMPORT_LIMITS, work)).toEqual({
      skipped: {
        path: path.join(sessions, "b.settings.json"),
        reason: "the session's settings file is not valid JSON (its token totals are left out)",
      },
    });
    writeFileSync(path.join(sessions, "c.settings.json"), JSON.stringify({ pad: "x".repeat(2000) }));
    const read = await readDroidSettings(transcript("c"), { ...DEFAULT_IMPORT_LIMITS, maxLineBytes: 1000 }, work);
    expect(read).toMatchObject({
      skipped: {
        path: path.join(sessions, "c.settings.json"),
        bytes: expect.any(Number),
        reason: expect.stringMatching(/record too large/),
      },
    });
  });

  it("never opens settings that lead out of the followed folder", async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "threadline-droid-outside-"));
    try {
      writeFileSync(path.join(outside, "secret.json"), JSON.stringify({ model: "outside" }));
      symlinkSync(path.join(outside, "secret.json"), path.join(sessions, "d.settings.json"));
      const read = await readDroidSettings(transcript("d"), DEFAULT_IMPORT_LIMITS, work);
      expect(read).toMatchObject({ skipped: { path: path.join(sessions, "d.settings.json") } });
      expect(JSON.stringify(read)).not.toContain('outside"');
      // Without a folder to stay in (a file a person named), the link is followed.
      expect(await readDroidSettings(transcript("d"), DEFAULT_IMPORT_LIMITS)).toMatchObject({ value: { model: "outside" } });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("withSettingsDigest", () => {
  it("changes when either digest changes", () => {
    const a = withSettingsDigest("1".repeat(64), "2".repeat(64));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(withSettingsDigest("1".repeat(64), "2".repeat(64))).toBe(a);
    expect(withSettingsDigest("1".repeat(64), "3".repeat(64))).not.toBe(a);
    expect(withSettingsDigest("4".repeat(64), "2".repeat(64))).not.toBe(a);
  });
});
