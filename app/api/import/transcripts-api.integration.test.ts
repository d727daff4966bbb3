/**
 * Integration tests of transcript imports through POST /api/import on a real SQLite file: real
 * Claude Code sessions (detected, linked, idempotent, incremental) and bad input.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { importedThreadId } from "@/lib/importers/stable-id";
import { json, jsonRequest } from "@/lib/testing/api";
import { api, expectError, fetchThread, rowCounts } from "@/lib/testing/integration";
import { POST as importRoute } from "./route";

const CLAUDE = path.join(process.cwd(), "fixtures/real/claude-code/projects");
const SESSION = "-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";
const AGENT = "-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl";

const read = (relative: string) => readFileSync(path.join(CLAUDE, relative), "utf8");

function upload(text: string, query: Record<string, string> = {}) {
  return importRoute(jsonRequest("POST", `/api/import?${new URLSearchParams(query)}`, text));
}

type Report = {
  name: string;
  format: string;
  status: string;
  threads: { created: number; updated: number; unchanged: number };
  turnsAdded: number;
  threadIds: string[];
  skipped: { line?: number; reason: string }[];
  warnings: string[];
};

describe("POST /api/import with agent transcripts", () => {
  it("detects a Claude Code session and its sub-agent file, in either order, and links them", async () => {
    const mainId = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    const agentResponse = await upload(read(AGENT), { name: AGENT });
    expect(agentResponse.status).toBe(201);
    const agent = await json<Report>(agentResponse);
    expect(agent).toMatchObject({
      format: "claude-code",
      status: "imported",
      threads: { created: 1, updated: 0, unchanged: 0 },
      turnsAdded: 16,
    });

    const mainResponse = await upload(read(SESSION), { name: SESSION });
    expect(mainResponse.status).toBe(201);
    const main = await json<Report>(mainResponse);
    expect(main).toMatchObject({ format: "claude-code", status: "imported", threads: { created: 1 }, turnsAdded: 29, threadIds: [mainId] });

    const { thread, turns } = await fetchThread(mainId);
    expect(thread).toMatchObject({
      source: "import:claude-code",
      toolName: "claude-code",
      project: "/home/USER/projects/spotter-worktrees/spotter-4te",
      turnCount: 29,
    });
    expect(thread.metadata).toMatchObject({
      version: "2.1.39",
      importedFrom: { format: "claude-code", key: "ae4a77f8-aedd-4bc1-888f-c94edc91af04" },
    });
    expect(thread.tokens?.count).toBeGreaterThan(0);
    const compaction = turns.find((t) => t.parts?.some((p) => p.type === "compaction"));
    expect(compaction?.parts).toEqual([{ type: "compaction", trigger: "manual", tokensBefore: 142_431, tokensAfter: null }]);
    const usage = turns.find((t) => t.role === "assistant")?.modelMetadata?.usage;
    expect(usage).toMatchObject({ source: "reported" });
    // 8 API responses (message id + request id), each counted once with its last (final) usage, summed by reading the file in Python.
    expect(thread.usage).toEqual({
      inputTokens: 20,
      cacheReadTokens: 189_589,
      cacheWriteTokens: 77_978,
      outputTokens: 763,
      reasoningTokens: 0,
      source: "reported",
    });
    expect(turns.filter((t) => t.usage?.source === "reported")).toHaveLength(8);

    const child = await fetchThread(agent.threadIds[0]!);
    expect(child.thread.parentThreadId).toBe(mainId);

    // The list filters by source and by project, alone, together and with a search.
    const listIds = async (query: Record<string, string>) =>
      (await json<{ items: { id: string }[] }>(await api.listThreads(query))).items.map((t) => t.id).sort();
    const both = [mainId, agent.threadIds[0]!].sort();
    expect(await listIds({ source: "import:claude-code" })).toEqual(both);
    expect(await listIds({ project: "/home/USER/projects/spotter-worktrees/spotter-4te", source: "import:claude-code" })).toEqual(both);
    expect(await listIds({ project: "/home/USER/projects/spotter-worktrees/spotter-4te", q: "opentelemetry" })).toEqual(
      expect.arrayContaining([agent.threadIds[0]!]),
    );
    expect(await listIds({ source: "import:codex" })).toEqual([]);
    expect(await listIds({ project: "/nowhere" })).toEqual([]);
    expect(child.thread.metadata).toMatchObject({ relation: { kind: "subagent", agentId: "aac57f5" } });
  });

  it("skips a file imported before, and adds only the new turns when the file grew", async () => {
    const full = read("-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl");
    const name = "d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl";
    const lines = full.split("\n");
    const half = lines.slice(0, 20).join("\n") + "\n";

    const first = await json<Report>(await upload(half, { name }));
    expect(first.status).toBe("imported");
    const id = first.threadIds[0]!;
    const before = (await fetchThread(id)).turns;

    const again = await upload(half, { name });
    expect(again.status).toBe(200);
    // Unchanged says what the file made before, so the page can link to it.
    expect(await json<Report>(again)).toMatchObject({
      status: "unchanged",
      format: "claude-code",
      turnsAdded: 0,
      threads: { unchanged: 1 },
      threadIds: [id],
    });

    const counts = await rowCounts();
    const grown = await json<Report>(await upload(full, { name }));
    expect(grown).toMatchObject({ status: "imported", threads: { created: 0, updated: 1 } });
    const after = (await fetchThread(id)).turns;
    // the session as a whole: 7 user, 4 assistant, 6 tool, 2 system turns (see the parser's tests)
    expect(after).toHaveLength(19);
    expect(grown.turnsAdded).toBe(after.length - before.length);
    expect(await rowCounts()).toEqual({ threads: counts.threads, turns: counts.turns + grown.turnsAdded });
    // earlier turns kept their ids: nothing was duplicated or replaced
    expect(after.slice(0, before.length).map((t) => t.id)).toEqual(before.map((t) => t.id));
    expect(new Set(after.map((t) => t.id)).size).toBe(after.length);
  });

  it("rewrites a response that grew since the last import (a live session): its blocks come on several lines under one turn key", async () => {
    const full = read(SESSION);
    // Lines 8 to 10 are one API message whose last block is a tool call; the file imported after line 9 lacks it.
    const partial = full.split("\n").slice(0, 9).join("\n") + "\n";
    const first = await json<Report & { threadResults: { change: string }[] }>(await upload(partial, { name: `grows-${SESSION}` }));
    const id = first.threadIds[0]!;
    const before = (await fetchThread(id)).turns;
    const streamed = before.findIndex((t) => t.role === "assistant" && t.parts?.some((p) => p.type === "thinking"));
    expect(before[streamed]!.parts?.some((p) => p.type === "tool_call")).toBe(false);

    const grown = await json<Report & { threadResults: { change: string; fromTurn?: number }[] }>(
      await upload(full, { name: `grows-${SESSION}` }),
    );
    expect(grown.threadResults.find((t) => t.change !== "created")).toMatchObject({ change: "rewritten", fromTurn: streamed + 1 });
    const after = (await fetchThread(id)).turns;
    expect(after).toHaveLength(29);
    expect(after[streamed]!.parts?.slice(0, before[streamed]!.parts!.length)).toEqual(before[streamed]!.parts);
    expect(after[streamed]!.parts?.at(-1)?.type).toBe("tool_call");
    expect(after.slice(0, streamed).map((t) => t.id)).toEqual(before.slice(0, streamed).map((t) => t.id));
  });

  it("imports a file again after one of its threads was purged", async () => {
    const text = read(SESSION);
    const first = await json<Report>(await upload(text, { name: SESSION }));
    expect(["imported", "unchanged"]).toContain(first.status);
    const id = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    expect((await upload(text, { name: SESSION })).status).toBe(200);
    expect((await api.deleteThread(id)).status).toBe(204);
    const again = await upload(text, { name: SESSION });
    expect(again.status).toBe(201);
    expect(await json<Report>(again)).toMatchObject({ status: "imported", threads: { created: 1 }, turnsAdded: 29 });
    expect((await fetchThread(id)).turns).toHaveLength(29);
  });

  it("reports skipped lines with their number and reason", async () => {
    const text =
      read("-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl").trimEnd() + '\n{"type":"assistant","uuid":"cut-sh';
    const report = await json<Report>(await upload(text, { name: "55604662-cf2a-4331-851a-ec234028f8ca.jsonl" }));
    expect(report.status).toBe("imported");
    expect(report.skipped).toEqual([{ line: 16, reason: "truncated last line (the session may still be running)" }]);
  });

  it("answers 400 naming the supported formats for unknown, empty or binary input, and writes nothing", async () => {
    const counts = await rowCounts();
    const unknown = await expectError(await upload('{"hello": "world"}', { name: "notes.json" }), 400, "unsupported_format");
    expect(unknown.message).toMatch(
      /^notes\.json: a JSON document in no format Threadline reads\. Supported formats: Claude Code session \(JSONL\);/,
    );
    const binary = await expectError(await upload("\u0000\u0001\u0002PNG garbage", { name: "x.jsonl" }), 400, "unsupported_format");
    expect(binary.message).toMatch(/binary/);
    const lines = await expectError(await upload('{"a":1}\n{"b":2}\n', { name: "x.jsonl" }), 400, "unsupported_format");
    expect(lines.message).toMatch(/JSON lines in no format Threadline reads/);
    await expectError(await upload("   ", { name: "x.jsonl" }), 400, "invalid_json");
    const format = await expectError(await upload("{}", { format: "word" }), 400, "validation_failed");
    expect(format.message).toMatch(/^format: unknown format "word"/);
    expect(await rowCounts()).toEqual(counts);
    expect(await (await db()).importedFile.count({ where: { name: "notes.json" } })).toBe(0);
  });
});
