/**
 * Amp threads and Factory Droid sessions through the real import service and a real database: the
 * fixtures imported by path, again unchanged; a Droid session's settings beside it read with it (its
 * totals on the thread, a sub-agent session under its caller), a settings file rewritten alone making
 * the session import again, and settings that lead out of the followed folder left unread.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { importedThreadId } from "@/lib/importers/stable-id";
import { fetchThread } from "@/lib/testing/integration";
import { importPath } from "./import-file";

const AMP = path.join(process.cwd(), "fixtures/real/amp/threads");
const DROID = path.join(process.cwd(), "fixtures/real/factory-droid/sessions");
const MAIN = "5f3c2a10-7d4e-4b8a-9c21-3e6f0a1b2c3d";
const SUB = "9a1b7e42-0c3d-4f6a-8b5e-d2c4a6e8f013";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "threadline-amp-droid-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("Amp threads imported by path", () => {
  it.each(readdirSync(AMP))("%s: imports, then again unchanged", async (name) => {
    const file = path.join(AMP, name);
    const report = await importPath(file);
    expect(report.status, report.error).toBe("imported");
    expect(report.format).toBe("amp");
    expect(report.skipped).toEqual([]);
    const raw = JSON.parse(readFileSync(file, "utf8"));
    expect(report.threadIds).toEqual([importedThreadId("amp", raw.id)]);
    const { thread, turns } = await fetchThread(report.threadIds[0]!);
    expect(thread.title).toBe(raw.title);
    expect(turns).toHaveLength(raw.messages.length);
    // Every reply's usage as reported, none estimated.
    expect(turns.filter((t) => t.role === "assistant").map((t) => t.usage?.source)).toEqual(
      raw.messages.filter((m: { role: string }) => m.role === "assistant").map(() => "reported"),
    );
    expect((await importPath(file)).status).toBe("unchanged");
  });
});

describe("Factory Droid sessions imported by path, with their settings", () => {
  const folder = path.join(work, "sessions", "-home-dev-webapp");
  cpSync(path.join(DROID, "-home-dev-webapp"), folder, { recursive: true });
  const main = path.join(folder, `${MAIN}.jsonl`);
  const sub = path.join(folder, `${SUB}.jsonl`);
  const settingsOf = (id: string) => JSON.parse(readFileSync(path.join(folder, `${id}.settings.json`), "utf8"));

  it("keeps the settings' totals on the thread, its replies without usage of their own; the worker under its caller", async () => {
    const report = await importPath(main, undefined, undefined, { within: work });
    expect(report.status, report.error).toBe("imported");
    expect(report.format).toBe("factory-droid");
    expect(report.skipped).toEqual([]);
    const mainId = importedThreadId("factory-droid", MAIN);
    const { thread, turns } = await fetchThread(mainId);
    const u = settingsOf(MAIN).tokenUsage;
    expect(sessionTotalsOf(thread.metadata)!.models["claude-sonnet-4-5-20250929"]).toMatchObject({
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheReadTokens: u.cacheReadTokens,
      cacheWriteTokens: u.cacheCreationTokens,
    });
    // Counted in the session totals only: no reply has a usage, reported or estimated.
    expect(turns.filter((t) => t.role === "assistant").every((t) => t.usage === null)).toBe(true);

    const worker = await importPath(sub, undefined, undefined, { within: work });
    expect(worker.status, worker.error).toBe("imported");
    const { thread: child } = await fetchThread(importedThreadId("factory-droid", SUB));
    expect(child.parentThreadId).toBe(mainId);
    expect(sessionTotalsOf(child.metadata)!.models["claude-haiku-4-5-20251001"]!.outputTokens).toBe(
      settingsOf(SUB).tokenUsage.outputTokens,
    );
  });

  it("is unchanged when neither file changed, and is read again when only the settings were rewritten", async () => {
    expect((await importPath(main, undefined, undefined, { within: work })).status).toBe("unchanged");
    const settings = settingsOf(MAIN);
    settings.tokenUsage.outputTokens += 100;
    writeFileSync(path.join(folder, `${MAIN}.settings.json`), JSON.stringify(settings));
    const again = await importPath(main, undefined, undefined, { within: work });
    // Read again (not skipped by its digest): the turns are the same, the totals on the thread the new ones.
    expect(again.error).toBeUndefined();
    expect(again.threadResults.map((r) => r.change)).toEqual(["unchanged"]);
    const { thread } = await fetchThread(importedThreadId("factory-droid", MAIN));
    expect(sessionTotalsOf(thread.metadata)!.models["claude-sonnet-4-5-20250929"]!.outputTokens).toBe(settings.tokenUsage.outputTokens);
  });

  it("leaves settings that lead out of the followed folder unread, and says so", async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "threadline-droid-out-"));
    try {
      const settingsFile = path.join(folder, `${SUB}.settings.json`);
      writeFileSync(path.join(outside, "s.json"), JSON.stringify({ model: "elsewhere", tokenUsage: { inputTokens: 999 } }));
      unlinkSync(settingsFile);
      symlinkSync(path.join(outside, "s.json"), settingsFile);
      const report = await importPath(sub, undefined, undefined, { within: work });
      expect(report.status, report.error).toBe("imported");
      expect(report.skipped).toEqual([expect.objectContaining({ path: settingsFile })]);
      const { thread } = await fetchThread(importedThreadId("factory-droid", SUB));
      expect(sessionTotalsOf(thread.metadata)).toBeNull();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
