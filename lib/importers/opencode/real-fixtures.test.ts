// Every real OpenCode export in fixtures/real/opencode, checked against figures read
// from the raw JSON here with plain loops (never with the parser).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../index";
import { parseOpenCodeExport } from "./index";
import { someFixtures } from "@/lib/testing/real-fixtures";

const DIR = path.join(process.cwd(), "fixtures/real/opencode/export");
const FILES = someFixtures(
  readdirSync(DIR).filter((name) => name.endsWith(".json")),
  DIR,
);

function rawFigures(doc: any) {
  const figures = {
    turns: 0,
    user: 0,
    assistant: 0,
    tool: 0,
    markers: 0,
    calls: 0,
    results: 0,
    input: 0,
    output: 0,
    reasoning: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cost: 0,
    responses: 0,
  };
  const messages: any[] = doc.messages;
  for (let i = 0; i < messages.length; i++) {
    const { info, parts } = messages[i];
    if (info.role === "assistant") {
      figures.responses++;
      figures.input += info.tokens.input;
      figures.output += info.tokens.output;
      figures.reasoning += info.tokens.reasoning;
      figures.cacheRead += info.tokens.cache.read;
      figures.cacheWrite += info.tokens.cache.write;
      figures.cost += info.cost;
    }
    if (info.role === "user" && parts.some((p: any) => p.type === "compaction")) {
      figures.markers++;
      if (messages[i + 1]?.info.summary === true) {
        const next = messages[++i].info;
        figures.responses++;
        figures.input += next.tokens.input;
        figures.output += next.tokens.output;
        figures.reasoning += next.tokens.reasoning;
        figures.cacheRead += next.tokens.cache.read;
        figures.cacheWrite += next.tokens.cache.write;
        figures.cost += next.cost;
      }
      continue;
    }
    if (info.role === "user") figures.user++;
    else {
      figures.assistant++;
      const tools = parts.filter((p: any) => p.type === "tool");
      figures.calls += tools.length;
      const finished = tools.filter((p: any) => p.state.status === "completed" || p.state.status === "error").length;
      figures.results += finished;
      if (finished > 0) figures.tool++;
    }
  }
  figures.turns = figures.user + figures.assistant + figures.tool + figures.markers;
  return figures;
}

function encryptedBlobs(doc: any): string[] {
  return doc.messages.flatMap((m: any) =>
    m.parts.map((p: any) => p.metadata?.openai?.reasoningEncryptedContent).filter((v: unknown) => typeof v === "string"),
  );
}

describe.each(FILES)("real OpenCode export %s", (name) => {
  const text = readFileSync(path.join(DIR, name), "utf8");
  const doc = JSON.parse(text);
  const raw = rawFigures(doc);
  const result = parseOpenCodeExport(doc, { name });
  const thread = result.threads[0]!;

  it("is detected by content and gives one thread keyed by the session id, nothing skipped", () => {
    expect(detectFormat(name, text).format).toBe("opencode");
    expect(result.threads).toHaveLength(1);
    expect(result.skipped).toEqual([]);
    expect(thread.key).toBe(doc.info.id);
    expect(thread.title).toBe(doc.info.title);
    expect(thread.project).toBe(doc.info.directory);
    expect(thread.createdAt).toBe(new Date(doc.info.time.created).toISOString());
    expect(thread.lastUpdatedAt).toBe(new Date(doc.info.time.updated).toISOString());
    expect(thread.metadata).toMatchObject({ version: doc.info.version, slug: doc.info.slug, projectID: doc.info.projectID });
  });

  it("has a turn per message (a compaction request and its summary as one marker) and a tool turn per step with results", () => {
    const roles = { user: 0, assistant: 0, tool: 0, system: 0 };
    for (const turn of thread.turns) roles[turn.role]++;
    expect(thread.turns).toHaveLength(raw.turns);
    expect(roles).toEqual({ user: raw.user, assistant: raw.assistant, tool: raw.tool, system: raw.markers });
    expect(thread.turns.filter((turn) => turn.compaction)).toHaveLength(raw.markers);
    expect(new Set(thread.turns.map((turn) => turn.key)).size).toBe(thread.turns.length);
  });

  it("pairs every finished tool call with its result, on the tool turn right after", () => {
    const calls = thread.turns.flatMap((turn, index) =>
      (turn.parts ?? []).flatMap((part) => (part.type === "tool_call" ? [{ id: part.id, index }] : [])),
    );
    const results = thread.turns.flatMap((turn, index) =>
      (turn.parts ?? []).flatMap((part) => (part.type === "tool_result" ? [{ id: part.toolCallId, index }] : [])),
    );
    expect(calls).toHaveLength(raw.calls);
    expect(results).toHaveLength(raw.results);
    for (const result of results) expect(calls.find((call) => call.id === result.id)?.index).toBe(result.index - 1);
  });

  it("sums usage and OpenCode's cost exactly as the raw messages report them", () => {
    const sum = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost: 0, responses: 0 };
    for (const turn of thread.turns) {
      if (!turn.usage) continue;
      sum.responses++;
      sum.input += turn.usage.inputTokens ?? 0;
      sum.output += turn.usage.outputTokens ?? 0;
      sum.reasoning += turn.usage.reasoningTokens ?? 0;
      sum.cacheRead += turn.usage.cacheReadTokens ?? 0;
      sum.cacheWrite += turn.usage.cacheWriteTokens ?? 0;
      sum.cost += turn.usage.reportedCostUsd ?? NaN;
    }
    expect(sum).toEqual({
      input: raw.input,
      output: raw.output,
      reasoning: raw.reasoning,
      cacheRead: raw.cacheRead,
      cacheWrite: raw.cacheWrite,
      cost: raw.cost,
      responses: raw.responses,
    });
    for (const turn of thread.turns.filter((t) => t.role === "assistant")) expect(turn.modelProvider).toBe("openai");
  });

  it("never keeps OpenAI's encrypted reasoning", () => {
    const blobs = encryptedBlobs(doc);
    expect(blobs.length).toBeGreaterThan(0);
    const stored = JSON.stringify(result);
    for (const blob of blobs) expect(stored).not.toContain(blob.slice(0, 64));
    expect(stored).not.toContain("reasoningEncryptedContent");
  });
});

describe("what the samples show", () => {
  const read = (name: string) => parseOpenCodeExport(JSON.parse(readFileSync(path.join(DIR, name), "utf8")), { name }).threads[0]!;

  it("ses_39b5d713…: the task call names its child session (not in the sample) on the call and the result", () => {
    const thread = read("ses_39b5d713cffeRgAoxPIwS3Plus.json");
    const call = thread.turns.flatMap((t) => t.parts ?? []).find((p) => p.type === "tool_call" && p.name === "task");
    const result = thread.turns
      .flatMap((t) => t.parts ?? [])
      .find((p) => p.type === "tool_result" && p.toolCallId === "call_JV2AfZQdyiUa2gcwxGFvJ1FF");
    expect(call).toMatchObject({
      id: "call_JV2AfZQdyiUa2gcwxGFvJ1FF",
      childSessionId: "ses_39b5d3ed8ffea9fQ9vQMuZnTtO",
      status: "completed",
    });
    expect(result).toMatchObject({ agentId: "ses_39b5d3ed8ffea9fQ9vQMuZnTtO", isError: false });
    // Reasoning with only the encrypted form is marked redacted; with a summary it shows it.
    const thinking = thread.turns.flatMap((t) => t.parts ?? []).filter((p) => p.type === "thinking");
    expect(thinking.map((p) => p.text)).toEqual(["**Confirming skill and route usage**", "", ""]);
    expect(thinking.map((p) => p.redacted === true)).toEqual([false, true, true]);
  });

  it("ses_39b7f9e8…: a manual compaction marker holds the summary; the pruned task result is marked; the patch's diff and files are kept", () => {
    const thread = read("ses_39b7f9e89ffe7J0WzLzYrUt4eW.json");
    const marker = thread.turns.at(-1)!;
    expect(marker).toMatchObject({
      key: "msg_c648e17e6001YM54MG29gGQBfQ",
      role: "system",
      compaction: { trigger: "manual" },
      modelName: "gpt-5.3-codex",
    });
    expect(marker.content.startsWith("## Goal\n\nCreate research notes")).toBe(true);
    // The summary is the content only (the page folds it under the marker), never a text part too.
    expect(marker.parts!.map((p) => p.type)).not.toContain("text");
    expect(marker.metadata).toMatchObject({
      summary: {
        messageId: "msg_c648e17ec0017ewG6GOaVULORx",
        mode: "compaction",
        patches: [{ files: ["/Users/alex/repos/vfp/dark-factory/scripts/scrape_moon_docs.sh.ts"] }],
      },
    });
    const task = thread.turns
      .flatMap((t) => t.parts ?? [])
      .find((p) => p.type === "tool_result" && p.toolCallId === "call_2ecomTrNqdqxi8CvrYr28wyf");
    expect(task?.compactedAt).toBe(new Date(1771213545701).toISOString());
    const patch = thread.turns
      .flatMap((t) => t.parts ?? [])
      .find((p) => p.type === "tool_result" && p.toolCallId === "call_lSyAGoF0AsNGmunYnFp4aN8Q");
    expect(String(patch?.diff)).toContain("@@ -40,8 +40,146 @@");
    const step = thread.turns.find((t) => t.key === "msg_c648d784c0019ABdCN42MajDoh")!;
    expect(step.metadata).toMatchObject({
      finish: "tool-calls",
      steps: [{ type: "step-start" }, { type: "step-finish", reason: "tool-calls" }],
      patches: [{ hash: "689b71acce0a09b1c69553864f5e86d1fe8cb76f" }],
    });
  });
});
