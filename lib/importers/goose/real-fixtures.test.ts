/**
 * Every legacy Goose session file of the shared fixtures (fixtures/real/goose; the sessions.db
 * fixtures are read by lib/imports/goose-database.test.ts), checked against an independent reading
 * of the raw lines done here with JSON.parse: one thread of the file's name, every message line a
 * turn, the tool calls and results paired, the metadata line's totals as the session totals.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { numberedLines } from "../index";
import { parseGooseJsonl } from "./index";

const ROOT = path.join(process.cwd(), "fixtures/real/goose");
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) =>
    statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name)) : [path.join(dir, name)],
  );
const LEGACY = someFixtures(
  filesUnder(ROOT).filter((f) => f.endsWith(".jsonl")),
  ROOT,
);

type Raw = any;
const blocksOf = (messages: Raw[], type: string) => messages.flatMap((m) => m.content.filter((b: Raw) => b.type === type));

describe.each(LEGACY.map((file) => ({ name: path.relative(ROOT, file), file })))("$name", ({ file }) => {
  const text = readFileSync(file, "utf8");
  const [metadata, ...messages] = text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Raw);
  const parsed = parseGooseJsonl(numberedLines(text), { name: file });
  const thread = parsed.threads[0]!;
  const parts = (type: string) => thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === type)) as Raw[];

  it("is one thread of the file's name, its description the title and working_dir the project", () => {
    expect(parsed.skipped).toEqual([]);
    expect(parsed.threads).toHaveLength(1);
    expect(thread).toMatchObject({ key: path.basename(file, ".jsonl"), project: metadata.working_dir, title: metadata.description });
  });

  it("makes every message line a turn, tool results tool turns, and pairs the calls by goose's id", () => {
    expect(thread.turns).toHaveLength(messages.length);
    expect(thread.turns.map((t) => t.role)).toEqual(
      messages.map((m) => (m.content.every((b: Raw) => b.type === "toolResponse") ? "tool" : m.role)),
    );
    expect(thread.turns.map((t) => t.timestamp)).toEqual(messages.map((m) => new Date(m.created * 1000).toISOString()));
    expect(parts("tool_call").map((p) => p.id)).toEqual(blocksOf(messages, "toolRequest").map((b) => b.id));
    expect(parts("tool_result").map((p) => p.toolCallId)).toEqual(blocksOf(messages, "toolResponse").map((b) => b.id));
  });

  it("keeps the metadata line's accumulated totals as session totals, estimating no reply", () => {
    expect(sessionTotalsOf(thread.metadata)!.models.unknown).toMatchObject({
      reportedInputTokens: metadata.accumulated_input_tokens,
      outputTokens: metadata.accumulated_output_tokens,
    });
    expect(thread.turns.filter((t) => t.role === "assistant").every((t) => t.metadata?.usageIn === "sessionTotals")).toBe(true);
  });
});
