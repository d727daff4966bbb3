/**
 * The list's Tool and Agent filters on the real fixtures (fixtures/real): a tool is matched in any
 * agent's turns whatever its case, and listed once; an agent is the thread's source.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { toolKey } from "@/lib/domain/threads/thread-tools";
import { importFile } from "@/lib/imports/import-file";
import { fixtureFiles } from "@/lib/testing/real-fixtures";
import { newThread, newTurn } from "@/lib/testing/integration";
import { db } from "../engine/client";
import { currentThreadTools, listToolOptions, refreshThreadTools, TOOLS_TRUSTED_MS } from "./thread-tools";
import { listFacets, listThreads } from "./threads";

async function allIds(query: { tool?: string; source?: string; q?: string }): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listThreads(
      {
        q: query.q,
        tool: query.tool,
        source: query.source,
        model: undefined,
        project: undefined,
        cursor,
        limit: 50,
      },
      null,
    );
    ids.push(...page.items.map((thread) => thread.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids.sort();
}

/** Threads that used `tool` (any case), read from the stored turns without the ThreadTool rows. */
async function threadsUsing(tool: string): Promise<string[]> {
  const turns = await (await db()).turn.findMany({ select: { threadId: true, toolName: true, parts: true } });
  const found = new Set<string>();
  for (const turn of turns) {
    const parts: unknown = turn.parts ? JSON.parse(turn.parts) : null;
    const calls = Array.isArray(parts) ? (parts as { type?: string; name?: string }[]).filter((p) => p?.type === "tool_call") : [];
    const names = [turn.toolName, ...calls.map((p) => p.name)];
    if (names.some((name) => name && name.toLowerCase() === tool.toLowerCase())) found.add(turn.threadId);
  }
  return [...found].sort();
}

describe("Tool and Agent filters", () => {
  beforeAll(async () => {
    for (const { file, name } of fixtureFiles) await importFile(name, readFileSync(file, "utf8"));
  }, 120_000);

  it("finds a tool in every agent's sessions whatever its case: Claude Code's Bash with Pi's and Copilot's bash", async () => {
    const expected = await threadsUsing("bash");
    const sources = new Set(
      (await (await db()).thread.findMany({ where: { id: { in: expected } }, select: { source: true } })).map((t) => t.source),
    );
    // The fixtures' own facts: each of these agents ran a shell tool under one spelling or the other.
    expect([...sources].sort()).toEqual(expect.arrayContaining(["import:claude-code", "import:copilot", "import:pi"]));
    expect(await allIds({ tool: "bash" })).toEqual(expected);
    expect(await allIds({ tool: "Bash" })).toEqual(expected);
    expect(await allIds({ tool: "BASH", q: "the" })).toEqual((await allIds({ q: "the" })).filter((id) => expected.includes(id)));
  });

  it("never matches an agent's own name as a tool", async () => {
    expect(await allIds({ tool: "claude-code" })).toEqual([]);
    expect(await allIds({ tool: "pi" })).toEqual(await threadsUsing("pi"));
  });

  it("lists each tool once whatever its case", async () => {
    const options = await listToolOptions();
    const keys = options.map((option) => option.value);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain("bash");
    for (const option of options) expect(toolKey(option.label)).toBe(option.value);
    expect(options.map((o) => o.label)).not.toContain("claude-code");
  });

  it("filters by agent: the thread's source", async () => {
    const facets = await listFacets(null);
    expect(facets.sources).toEqual(
      expect.arrayContaining([
        "import:claude-code",
        "import:codex",
        "import:pi",
        "import:copilot",
        "import:opencode",
        "import:aider",
        "import:gemini-cli",
        "import:chatgpt",
      ]),
    );
    // The label map's order: Claude Code first.
    expect(facets.sources[0]).toBe("import:claude-code");
    for (const source of ["import:claude-code", "import:pi"]) {
      const stored = (await (await db()).thread.findMany({ where: { source }, select: { id: true } })).map((t) => t.id).sort();
      expect(stored.length).toBeGreaterThan(0);
      expect(await allIds({ source })).toEqual(stored);
    }
    const both = await allIds({ source: "import:pi", tool: "bash" });
    expect(both.length).toBeGreaterThan(0);
    expect(both).toEqual((await allIds({ source: "import:pi" })).filter((id) => both.includes(id)));
  });

  it("keeps up with new turns, and an API thread's own tool counts", async () => {
    const thread = await newThread({ toolName: "Analyze" });
    expect(await allIds({ tool: "analyze" })).toContain(thread.id);
    await newTurn(thread.id, {
      role: "assistant",
      content: "ran it",
      parts: [{ type: "tool_call", id: "c1", name: "WebFetch", arguments: {} }],
    });
    expect(await allIds({ tool: "webfetch" })).toContain(thread.id);
    expect(await refreshThreadTools()).toBe(0);
  });

  it("trusts its last check while this process writes nothing, and reads another process's writes once that check is old", async () => {
    const thread = await newThread({ toolName: "chat" });
    await currentThreadTools();
    // Another process's write: stored without this process hearing of it.
    const client = await db();
    await client.$transaction([
      client.turn.create({
        data: {
          id: randomUUID(),
          threadId: thread.id,
          index: 0,
          role: "assistant",
          content: "ran it",
          timestamp: new Date(),
          toolName: "ElsewhereTool",
        },
      }),
      client.thread.update({ where: { id: thread.id }, data: { turnCount: 1, lastUpdatedAt: new Date() } }),
    ]);
    expect(await allIds({ tool: "elsewheretool" })).toEqual([]);
    await currentThreadTools(Date.now() + TOOLS_TRUSTED_MS);
    await expect.poll(() => allIds({ tool: "elsewheretool" })).toEqual([thread.id]);
  });
});
