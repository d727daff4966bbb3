/**
 * Every Qwen Code transcript of the shared fixtures (synthetic: see fixtures/real/SOURCES.md),
 * checked against an independent reading of the raw lines done here with plain JSON.parse: the
 * chain from the last record, which records make turns, each response's usage, the call ids and
 * their results, and the thread a sub-agent's file becomes.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { detectFormat, parseDetected } from "../index";

const ROOT = path.join(process.cwd(), "fixtures/real/qwen-code");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
// agent-<id>.meta.json is a side file (the launch record), not a transcript.
const FILES = someFixtures(
  filesUnder(ROOT).filter((file) => file.endsWith(".jsonl")),
  "fixtures/real/qwen-code",
);

type Raw = any;

function records(file: string): Raw[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** The main chain as Qwen Code's sessionService.reconstructHistory walks it: from the last record up the parents. */
function chain(all: Raw[]): Raw[] {
  const byUuid = new Map(all.map((r) => [r.uuid, r]));
  const out: Raw[] = [];
  for (let r = all.at(-1); r; r = r.parentUuid ? byUuid.get(r.parentUuid) : undefined) out.push(r);
  return out.reverse();
}

/** The records of the chain that are conversation: messages, the compression checkpoint, a slash command typed. */
function conversational(r: Raw): boolean {
  if (r.type === "user" || r.type === "assistant" || r.type === "tool_result") return true;
  if (r.subtype === "chat_compression") return true;
  return r.subtype === "slash_command" && r.systemPayload.phase === "invocation";
}

describe.each(FILES.map((file) => [path.relative(ROOT, file), file]))("%s", (_name, file) => {
  const raw = records(file);

  it("is detected as Qwen Code and parses without skipping anything", async () => {
    const detected = detectFormat(file, readFileSync(file, "utf8"));
    expect(detected.format).toBe("qwen-code");
    const parsed = await parseDetected(file, detected);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.warnings).toEqual([]);
  });

  it("holds the chain from the last record as its main thread, in order, with the roles the records say", async () => {
    const parsed = await parseDetected(file, detectFormat(file, readFileSync(file, "utf8")));
    const main = parsed.threads[0]!;
    const expected = chain(raw).filter(conversational);
    expect(main.turns.map((t) => t.key)).toEqual(expected.map((r) => r.uuid));
    const role = (r: Raw) =>
      r.type === "tool_result" ? "tool" : r.type === "system" ? (r.subtype === "slash_command" ? "user" : "system") : r.type;
    expect(main.turns.map((t) => t.role)).toEqual(expected.map(role));
    expect(main.project).toBe(raw[0].cwd);
  });

  it("gives each response its usage once: prompt minus cache, cache reads, candidates, thoughts", async () => {
    const parsed = await parseDetected(file, detectFormat(file, readFileSync(file, "utf8")));
    const turns = parsed.threads.flatMap((t) => t.turns);
    const responses = raw.filter((r) => r.type === "assistant" && r.usageMetadata);
    const sum = (pick: (u: Raw) => number) => responses.reduce((n, r) => n + pick(r.usageMetadata), 0);
    const got = (field: "inputTokens" | "cacheReadTokens" | "outputTokens" | "reasoningTokens") =>
      turns.reduce((n, t) => n + (t.usage?.[field] ?? 0), 0);
    expect(turns.filter((t) => t.usage).length).toBe(responses.length);
    expect(got("inputTokens")).toBe(sum((u) => u.promptTokenCount - (u.cachedContentTokenCount ?? 0)));
    expect(got("cacheReadTokens")).toBe(sum((u) => u.cachedContentTokenCount ?? 0));
    // Every response here reports total = prompt + candidates: the thoughts are inside the candidates.
    expect(
      responses.every((r) => r.usageMetadata.totalTokenCount === r.usageMetadata.promptTokenCount + r.usageMetadata.candidatesTokenCount),
    ).toBe(true);
    expect(got("outputTokens")).toBe(sum((u) => u.candidatesTokenCount));
    expect(got("reasoningTokens")).toBe(sum((u) => u.thoughtsTokenCount ?? 0));
    for (const r of responses.filter((r) => r.model)) expect(turns.find((t) => t.key === r.uuid)?.modelName).toBe(r.model);
  });

  it("pairs every functionCall with the functionResponse of its id", async () => {
    const parsed = await parseDetected(file, detectFormat(file, readFileSync(file, "utf8")));
    const parts = parsed.threads.flatMap((t) => t.turns.flatMap((turn) => turn.parts ?? []));
    const calls = raw.flatMap((r) =>
      r.type === "assistant" ? r.message.parts.filter((p: Raw) => p.functionCall).map((p: Raw) => p.functionCall.id) : [],
    );
    const results = raw.flatMap((r) =>
      r.type === "tool_result"
        ? r.message.parts.map((p: Raw) => ({ id: p.functionResponse.id, error: r.toolCallResult?.status === "error" }))
        : [],
    );
    expect(parts.filter((p) => p.type === "tool_call").map((p) => (p as Raw).id)).toEqual(calls);
    expect(parts.filter((p) => p.type === "tool_result").map((p) => ({ id: (p as Raw).toolCallId, error: (p as Raw).isError }))).toEqual(
      results,
    );
    expect(new Set(results.map((r) => r.id))).toEqual(new Set(calls));
  });

  it("makes each abandoned branch a fork and a sub-agent's file a child of its session", async () => {
    const parsed = await parseDetected(file, detectFormat(file, readFileSync(file, "utf8")));
    const onChain = new Set(chain(raw).map((r) => r.uuid));
    const dead = raw.filter((r) => !onChain.has(r.uuid) && conversational(r));
    expect(parsed.threads.slice(1).flatMap((t) => t.turns.map((turn) => turn.key))).toEqual(dead.map((r) => r.uuid));
    for (const fork of parsed.threads.slice(1)) {
      expect(fork.parentKey).toBe(raw[0].sessionId);
      expect(onChain.has((fork.relation as Raw).atTurnKey)).toBe(true);
    }
    const main = parsed.threads[0]!;
    if (raw[0].isSidechain) {
      expect(main.key).toBe(`${raw[0].sessionId}:agent:${raw[0].agentId}`);
      expect(main.parentKey).toBe(path.basename(path.dirname(file)));
      expect(main.relation).toMatchObject({ kind: "subagent", agentId: raw[0].agentId });
    } else {
      expect(main.key).toBe(path.basename(file, ".jsonl"));
      const titles = raw.filter((r) => r.subtype === "custom_title");
      if (titles.length > 0) expect(main.title).toBe(titles.at(-1).systemPayload.customTitle);
    }
  });
});
