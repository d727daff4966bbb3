// Titles of the real fixtures (fixtures/real), agent by agent: the agent's own title where it
// stored one, else the first prompt a person typed, cut at a word boundary.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRealPrompt } from "@/lib/domain/threads/title";
import { detectFormat, parseDetected } from "./index";
import type { ImportedThread } from "./types";

const ROOT = join(process.cwd(), "fixtures/real");

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function mainThreads(agent: string): Promise<{ file: string; thread: ImportedThread }[]> {
  const files = filesUnder(join(ROOT, agent)).filter((f) => !f.includes("/subagents/"));
  const out: { file: string; thread: ImportedThread }[] = [];
  for (const file of files) {
    const name = file.split("/").pop()!;
    const parsed = await parseDetected(name, detectFormat(name, readFileSync(file, "utf8")));
    for (const thread of parsed.threads) if (!thread.parentKey) out.push({ file, thread });
  }
  return out;
}

function firstUserText(thread: ImportedThread): string | undefined {
  return thread.turns.find((t) => t.role === "user")?.content;
}

describe("titles of the real fixtures", () => {
  it.each(["claude-code", "codex", "gemini-cli", "pi", "copilot", "opencode", "aider", "chatgpt"])(
    "%s: every title is short, whole-worded and never a preamble",
    async (agent) => {
      const threads = await mainThreads(agent);
      expect(threads.length).toBeGreaterThan(0);
      for (const { file, thread } of threads) {
        const title = thread.title ?? "";
        expect(title, file).not.toBe("");
        expect(Array.from(title).length, file).toBeLessThanOrEqual(100);
        expect(isRealPrompt(title), `${file}: ${title}`).toBe(true);
        expect(title, file).not.toMatch(/^You are an AI agent|<command-|<local-command|<environment_context>|^System:/);
      }
    },
  );

  it('Gemini CLI: the /init preamble and "System: Please continue." are passed over for the first typed prompt', async () => {
    const threads = await mainThreads("gemini-cli");
    const init = threads.find(({ thread }) => /^\s*You are an AI agent/.test(firstUserText(thread) ?? ""))!;
    expect(init).toBeDefined();
    const typed = init.thread.turns
      .filter((t) => t.role === "user")
      .map((t) => t.content)
      .find(isRealPrompt)!;
    expect(init.thread.title).toBe(typed.replace(/\s+/g, " ").trim());
  });

  it("Claude Code: a session opened by a slash command is titled by the command, not its wrapper", async () => {
    const threads = await mainThreads("claude-code");
    const command = threads.find(({ thread }) => /^<command-message>/.test(firstUserText(thread) ?? ""))!;
    expect(command.thread.title).toBe("/orchestrator @CLAUDE.md を最新の状態にアップデートしてください");
  });

  it("Claude Code: a long first prompt is cut after a whole word, with an ellipsis", async () => {
    const threads = await mainThreads("claude-code");
    const bead = threads.find(({ thread }) => firstUserText(thread)?.startsWith("Work on bead spotter-4te"))!;
    expect(bead.thread.title).toBe("Work on bead spotter-4te. Run bd show spotter-4te to see the issue details and bd ready to find…");
  });

  it("Codex: the request under the IDE context header names the thread", async () => {
    const threads = await mainThreads("codex");
    const ide = threads.find(({ thread }) => firstUserText(thread)?.startsWith("# Context from my IDE setup"))!;
    expect(ide.thread.title?.startsWith("幫我檢查一下 go.mod")).toBe(true);
    expect(ide.thread.title).toMatch(/…$/);
  });

  it("ChatGPT and OpenCode keep the titles they stored; Pi its session name", async () => {
    const chatgpt = await mainThreads("chatgpt");
    expect(chatgpt.map(({ thread }) => thread.title)).toContain("GitHub Wikis & Source Code");
    const opencode = await mainThreads("opencode");
    expect(opencode.map(({ thread }) => thread.title).sort()).toEqual([
      "Gitter-commit workflow summary for repository commits",
      "Gitter-commit: Clean, multi-commit repo preparation",
    ]);
    const pi = await mainThreads("pi");
    expect(pi.map(({ thread }) => thread.title)).toContain("agent-history pi smoke");
  });

  it("Aider: a run without a prompt says which run it is", async () => {
    const aider = await mainThreads("aider");
    expect(aider.map(({ thread }) => thread.title)).toContain("Aider run of 2025-07-16 20:10:38");
  });
});
