/**
 * The import CLI as users run it (`npm run import -- <paths>`), in a child process on its own
 * SQLite file: the real fixtures folder, re-imported idempotently, and a 200 MB Claude Code
 * session streamed within the memory bound.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeClaudeCodeSession } from "@/lib/testing/claude-code-session";

const run = promisify(execFile);
const root = process.cwd();
const work = path.join(root, ".tmp", `import-cli-${process.pid}`);
mkdirSync(work, { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Stats = {
  files: number;
  imported: number;
  unchanged: number;
  failed: number;
  threadsCreated: number;
  turns: number;
  skipped: number;
  unopened: number;
  bytes: number;
  maxRssBytes: number;
};

async function importCli(database: string, ...args: string[]): Promise<{ stdout: string; stats: Stats }> {
  const { stdout } = await run("npm", ["run", "--silent", "import", "--", ...args, "--stats"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `file:${database}`, NODE_OPTIONS: "" },
    maxBuffer: 64 << 20,
  });
  const last = stdout.trim().split("\n").pop() ?? "";
  return { stdout, stats: (JSON.parse(last) as { stats: Stats }).stats };
}

describe("npm run import", () => {
  it("imports every real fixture, then skips them all as unchanged", async () => {
    const database = path.join(work, "fixtures.db");
    const first = await importCli(database, "fixtures/real");
    // 7 Claude Code files (one is the compaction summariser's: imported as a run of its session, no thread), 3 Codex, 3 Gemini CLI,
    // 1 ChatGPT, 2 OpenCode exports, 2 Pi sessions, 2 Copilot CLI sessions (events.jsonl and a legacy JSON), 1 Aider history,
    // 1 Crush database (2 sessions), 3 Goose files (two sessions.db, one legacy .jsonl), 2 Cursor state.vscdb (global and
    // workspace), 3 Amp threads, 2 Factory Droid sessions (their .settings.json read beside them), 2 Continue sessions (not
    // their sessions.json index), 2 Qwen Code chats (a session and its sub-agent), and the API histories of 1 Cline, 2 Roo
    // Code and 1 Kilo Code task (their other files read beside them): 40.
    const FILES = 40;
    expect(first.stats).toMatchObject({ files: FILES, imported: FILES, unchanged: 0, failed: 0 });
    expect(first.stdout).toMatch(/imported +\S+agent-acompact-946d2b\.jsonl .*0 new, 0 updated thread/);
    expect(first.stdout).toMatch(
      /compaction summariser's transcript, not a conversation: no thread; its usage \(1 response\) counts with session/,
    );
    const db = new Database(database, { readonly: true });
    const bySource = db.prepare(`SELECT source, count(*) AS n FROM "Thread" GROUP BY source ORDER BY source`).all();
    const turns = (db.prepare(`SELECT count(*) AS n FROM "Turn"`).get() as { n: number }).n;
    const runs = db.prepare(`SELECT "runId" FROM "CompactionRun"`).pluck().all();
    db.close();
    expect(runs).toEqual(["acompact-946d2b"]);
    expect(bySource.map((r) => (r as { source: string }).source)).toEqual([
      "import:aider",
      "import:amp",
      "import:chatgpt",
      "import:claude-code",
      "import:cline",
      "import:codex",
      "import:continue",
      "import:copilot",
      "import:crush",
      "import:cursor",
      "import:factory-droid",
      "import:gemini-cli",
      "import:goose",
      "import:kilo-code",
      "import:opencode",
      "import:pi",
      "import:qwen-code",
      "import:roo-code",
    ]);
    expect(turns).toBe(first.stats.turns);

    const again = await importCli(database, "fixtures/real");
    expect(again.stats).toMatchObject({ files: FILES, imported: 0, unchanged: FILES, failed: 0, turns: 0 });
  }, 120_000);

  it("stays inside a folder it is given: links out of it are left unopened and said; a file named directly is read", async () => {
    const dir = path.join(work, "links");
    const elsewhere = path.join(work, "elsewhere");
    mkdirSync(path.join(dir, "project"), { recursive: true });
    mkdirSync(path.join(elsewhere, "project"), { recursive: true });
    const marker = `cli-outside-marker-${process.pid}-${Date.now()}`;
    writeFileSync(path.join(elsewhere, "secret.json"), JSON.stringify([{ role: "user", content: marker }]));
    cpSync(
      "fixtures/real/claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
      path.join(elsewhere, "project", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"),
    );
    writeFileSync(path.join(dir, "project", "notes.json"), JSON.stringify([{ role: "user", content: "inside" }]));
    symlinkSync(path.join(elsewhere, "secret.json"), path.join(dir, "leak.json"));
    symlinkSync(path.join(elsewhere, "project"), path.join(dir, "other-project"));
    const database = path.join(work, "links.db");
    const markerTurns = () => {
      const db = new Database(database, { readonly: true });
      const found = (db.prepare(`SELECT count(*) AS n FROM "Turn" WHERE content LIKE ?`).get(`%${marker}%`) as { n: number }).n;
      const claude = (db.prepare(`SELECT count(*) AS n FROM "Thread" WHERE source = 'import:claude-code'`).get() as { n: number }).n;
      db.close();
      return { found, claude };
    };

    const walked = await importCli(database, dir);
    expect(walked.stats).toMatchObject({ files: 1, imported: 1, failed: 0, unopened: 2 });
    expect(walked.stdout).toContain(`unopened   ${path.join(dir, "leak.json")}: a symbolic link to a place outside ${dir}`);
    expect(walked.stdout).toContain(`unopened   ${path.join(dir, "other-project")}: a symbolic link to a place outside ${dir}`);
    expect(markerTurns()).toEqual({ found: 0, claude: 0 });

    // Named on its own, the link is what the person asked for: read.
    const named = await importCli(database, path.join(dir, "leak.json"));
    expect(named.stats).toMatchObject({ files: 1, imported: 1, unopened: 0 });
    expect(markerTurns().found).toBe(1);
  }, 120_000);

  it("streams a 200 MB Claude Code session with peak RSS under 400 MB, every turn and usage stored once", async () => {
    const dir = path.join(work, "big");
    mkdirSync(dir, { recursive: true });
    const generated = writeClaudeCodeSession(path.join(dir, "3f0b8c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f.jsonl"), 200_000_000);
    const database = path.join(work, "big.db");
    const { stats } = await importCli(database, dir);
    expect(stats).toMatchObject({ files: 1, imported: 1, failed: 0, threadsCreated: 1, turns: generated.turns, skipped: 0 });
    expect(stats.maxRssBytes).toBeLessThan(400 * 1024 * 1024);

    const db = new Database(database, { readonly: true });
    const usage = db
      .prepare(
        `SELECT sum(json_extract(modelMetadata, '$.usage.inputTokens')) AS inputTokens, sum(json_extract(modelMetadata, '$.usage.cacheReadTokens')) AS cacheReadTokens,
                sum(json_extract(modelMetadata, '$.usage.cacheWriteTokens')) AS cacheWriteTokens, sum(json_extract(modelMetadata, '$.usage.outputTokens')) AS outputTokens
         FROM "Turn"`,
      )
      .get();
    const counted = db.prepare(`SELECT count(*) AS n FROM "TurnTokenCount"`).get() as { n: number };
    const calls = db
      .prepare(`SELECT count(*) AS n FROM "Turn", json_each("Turn".parts) p WHERE json_extract(p.value, '$.type') = 'tool_call'`)
      .get() as { n: number };
    db.close();
    expect(usage).toEqual(generated.usage);
    expect(counted.n).toBe(generated.turns);
    expect(calls.n).toBe(generated.toolCalls);
  }, 300_000);
});
