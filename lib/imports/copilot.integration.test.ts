/**
 * The real Copilot CLI sessions through the import service on a real database: imported, re-imported
 * unchanged, an events.jsonl grown by appends ending where the whole file does, and each thread
 * exported as threadline/v1 and imported back with the same turns and session totals.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import type { Turn } from "@/lib/domain/types";
import { EVENTS_FILE, FIXTURES, LEGACY_FILE } from "@/lib/importers/copilot/test-helpers";
import { json } from "@/lib/testing/api";
import { api, fetchThread } from "@/lib/testing/integration";
import { importPath } from "./import-file";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-copilot-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A turn without what a copy changes (ids) or what is computed on read. */
function portable(turn: Turn) {
  return {
    role: turn.role,
    content: turn.content,
    parts: turn.parts,
    timestamp: turn.timestamp,
    modelName: turn.modelName,
    modelProvider: turn.modelProvider,
    toolName: turn.toolName,
    files: turn.files,
    modelMetadata: turn.modelMetadata,
  };
}

describe.each([
  { label: "events.jsonl", file: EVENTS_FILE, turns: 20 },
  { label: "legacy JSON", file: LEGACY_FILE, turns: 13 },
])("real Copilot session ($label)", ({ file, turns }) => {
  const name = path.relative(FIXTURES, file);

  it("imports as one thread, re-imports unchanged, and comes back from its export with the same turns", async () => {
    const first = await importPath(file, name);
    expect(first, first.error).toMatchObject({
      status: "imported",
      format: "copilot",
      threads: { created: 1, updated: 0, unchanged: 0 },
      turnsAdded: turns,
      skipped: [],
      warnings: [],
    });
    const again = await importPath(file, name);
    expect(again).toMatchObject({ status: "unchanged", threadIds: first.threadIds });

    const original = await fetchThread(first.threadIds[0]!);
    expect(original.thread.toolName).toBe("copilot");
    expect(original.turns).toHaveLength(turns);

    const exported = await (await api.exportThread(original.thread.id)).text();
    expect(JSON.parse(exported)).toMatchObject({ format: "threadline/v1" });
    const imported = await api.importDocuments(exported, "?mode=copy");
    expect(imported.status, await imported.clone().text()).toBe(201);
    const { threadIds } = await json<{ threadIds: string[] }>(imported);
    const copy = await fetchThread(threadIds[0]!);
    expect(copy.turns.map(portable)).toEqual(original.turns.map(portable));
    expect(sessionTotalsOf(copy.thread.metadata)).toEqual(sessionTotalsOf(original.thread.metadata));
  });
});

describe("a growing events.jsonl", () => {
  it("appends the new events' turns and updates the session totals, ending as the whole file imports", async () => {
    const lines = readFileSync(EVENTS_FILE, "utf8")
      .split("\n")
      .filter((line) => line.trim());
    const dir = path.join(work, "session-state", "96ef38f0-9d09-45c3-8124-6448c36090ed");
    const grown = path.join(dir, "events.jsonl");
    mkdirSync(dir, { recursive: true });
    // Up to the first user message's answer, then the rest (with the shutdown) appended.
    const cut = lines.findIndex((line) => line.includes('"assistant.turn_end"')) + 1;
    writeFileSync(grown, `${lines.slice(0, cut).join("\n")}\n`);
    const early = await importPath(grown, "grown/events.jsonl");
    expect(early.status).toBe("imported");
    expect(sessionTotalsOf((await fetchThread(early.threadIds[0]!)).thread.metadata)).toBeNull();

    appendFileSync(grown, `${lines.slice(cut).join("\n")}\n`);
    const later = await importPath(grown, "grown/events.jsonl");
    expect(later.threadIds).toEqual(early.threadIds);
    expect(later.threadResults[0]).toMatchObject({ change: "appended", turnsRemoved: 0 });
    const stored = await fetchThread(later.threadIds[0]!);
    expect(stored.turns).toHaveLength(20);
    expect(sessionTotalsOf(stored.thread.metadata)?.models["claude-sonnet-4.6"]).toMatchObject({
      inputTokens: 35071,
      cacheReadTokens: 151738,
      outputTokens: 2848,
      premiumRequests: 2,
    });
  });
});
