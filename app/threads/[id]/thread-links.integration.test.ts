/**
 * Integration test (real SQLite file) of what the conversation page pairs: a Claude Code session and
 * its sub-agent file, imported, give a child whose relation ties it to the session's Task call.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { findThread, getThreadLinks, getThreadWithTurns } from "@/lib/db/threads/threads";
import { importFile } from "@/lib/imports/import-file";
import { newThread } from "@/lib/testing/integration";
import { buildToolIndex } from "@/components/threads/tool-index";

const DIR = "-home-USER-projects-spotter-worktrees-spotter-4te";
const SESSION = `${DIR}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl`;
const AGENT = `${DIR}/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl`;
const read = (relative: string) => readFileSync(path.join(process.cwd(), "fixtures/real/claude-code/projects", relative), "utf8");

describe("getThreadLinks with relations", () => {
  it("returns each child's relation, which ties an agent file's thread to its Task call", async () => {
    const [session, agent] = [await importFile(SESSION, read(SESSION)), await importFile(AGENT, read(AGENT))];
    const main = await getThreadWithTurns(session.threadIds[0]!);
    const links = await getThreadLinks(main.thread, null);
    expect(links.children).toEqual([
      {
        id: agent.threadIds[0],
        title: expect.stringMatching(/^Search hex\.pm for the latest versions/),
        relation: { kind: "subagent", toolCallId: "toolu_01Hf8v1Za7y4af8VUwSR4CXU", agentId: "aac57f5" },
      },
    ]);

    const tools = buildToolIndex(
      main.turns.map((turn) => ({ turn, number: turn.index + 1 })),
      links.children,
    );
    // The Task call whose result names agent aac57f5 (the fixture's line 99, toolUseResult.agentId).
    expect([...tools.subagents.keys()]).toEqual(["toolu_01Hf8v1Za7y4af8VUwSR4CXU"]);
    expect(tools.calls.get("toolu_01Hf8v1Za7y4af8VUwSR4CXU")?.part.name).toBe("Task");
  });

  it("reads no relation from metadata that is missing, malformed or of an unknown kind, and honours the limit", async () => {
    const parent = await newThread({ toolName: "chat" });
    const metadata = [
      null,
      "not json",
      JSON.stringify({ relation: { kind: "sibling" } }),
      JSON.stringify({ relation: { kind: "fork", atTurnKey: 3 } }),
    ];
    for (const value of metadata) {
      const child = await newThread({ toolName: "chat", parentThreadId: parent.id });
      await (await db()).thread.update({ where: { id: child.id }, data: { metadata: value } });
    }
    const links = await getThreadLinks((await findThread(parent.id))!, null);
    expect(links.children.map((c) => c.relation)).toEqual([null, null, null, { kind: "fork", atTurnKey: null }]);
    expect((await getThreadLinks((await findThread(parent.id))!, null, { childLimit: 2 })).children).toHaveLength(2);
  });
});
