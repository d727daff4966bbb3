/**
 * A new user's home folder holding every agent's sessions where that agent keeps them, beside the
 * other files those folders really hold (an editor's other extensions, Cursor's workspace.json,
 * Continue's index, Droid's settings, a project's other files): with THREADLINE_SOURCES unset, one
 * sync finds every agent's sessions, and nothing else is taken for a transcript or fails. Real
 * database and real folders; the sessions are the fixtures of fixtures/real (see its SOURCES.md).
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { forgetSyncedImports, restoreServerEnv, setServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { realOpenCodeExports, writeOpenCodeDatabase } from "@/lib/testing/opencode-storage";
import { REAL_TRANSCRIPTS } from "@/lib/testing/real-transcripts";
import { countingSync, ON_POSTGRES } from "@/lib/testing/source-sync";
import { makeSourcesHome } from "@/lib/testing/sources-home";

let home: ReturnType<typeof makeSourcesHome>;
beforeEach(() => {
  home = makeSourcesHome({ withClaudeCode: false });
});
afterEach(async () => {
  home.remove();
  restoreServerEnv();
  await forgetSyncedImports();
});

const fixture = (...parts: string[]) => path.join(REAL_TRANSCRIPTS, ...parts);

/** Copies `from` (a fixture folder) to `to` under the home folder. */
function place(from: string, to: string) {
  cpSync(from, path.join(home.home, to), { recursive: true });
}

function write(relative: string, text: string) {
  const file = path.join(home.home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe.skipIf(ON_POSTGRES)("every agent's own folder, with THREADLINE_SOURCES unset", () => {
  it("one sync finds every agent's sessions, and takes nothing else in those folders for a transcript", async () => {
    await switchToFreshDatabase();
    const code = ".config/Code/User/globalStorage";
    for (const agent of ["cline", "roo-code", "kilo-code"]) place(fixture(agent, "Code/User/globalStorage"), code);
    place(fixture("cursor/User"), ".config/Cursor/User");
    place(fixture("amp/threads"), ".local/share/amp/threads");
    place(fixture("factory-droid/sessions"), ".factory/sessions");
    place(fixture("continue/sessions"), ".continue/sessions");
    place(fixture("qwen-code/projects"), ".qwen/projects");
    place(fixture("goose/synthetic/sessions"), ".local/share/goose/sessions");
    // Crush keeps its sessions in each project, and lists the projects it ran in.
    place(fixture("crush/dbos-transact-golang/.crush"), "code/dbos/.crush");
    write("code/dbos/README.md", "# a project\n");
    write("code/dbos/package.json", '{"name": "dbos"}');
    write(
      ".local/share/crush/projects.json",
      JSON.stringify({ projects: [{ path: `${home.home}/code/dbos`, data_dir: `${home.home}/code/dbos/.crush` }] }),
    );
    // The Kilo CLI: OpenCode's schema in kilo.db.
    writeOpenCodeDatabase(
      path.join(home.home, ".local/share/kilo/kilo.db"),
      realOpenCodeExports().map((e) => e.doc),
    ).close();
    write(".local/share/kilo/auth.json", '{"openrouter": {"type": "api", "key": "not-read"}}');

    // What else those folders hold: other extensions' JSON, VS Code's own key-value store, a workspace's name.
    write(`${code}/github.copilot-chat/commandEmbeddings.json`, '{"core": []}');
    write(`${code}/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`, '{"mcpServers": {}}');
    const vscodeState = new Database(path.join(home.home, `${code}/state.vscdb`));
    vscodeState.exec("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)");
    vscodeState.close();
    write(".config/Cursor/User/workspaceStorage/aa11/workspace.json", '{"folder": "file:///home/ada/code/app"}');
    write(".config/Cursor/User/workspaceStorage/aa11/anysphere.cursor-retrieval/embeddable_files.json", "[]");
    write(".config/Cursor/User/globalStorage/storage.json", '{"telemetry": {}}');

    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: undefined });
    const { sync, read } = countingSync();
    const result = await sync.sync();
    const failures = result.folders.flatMap((folder) => folder.failures);
    expect(failures).toEqual([]);
    expect(result.folders.every((folder) => folder.failed === 0 && folder.filesSeen === folder.imported)).toBe(true);
    // Nothing but the agents' transcripts was opened: no other extension's file, no index, no settings alone.
    expect(
      read.filter((file) =>
        /copilot-chat|cline_mcp_settings|workspace\.json|storage\.json|sessions\.json|\.settings\.json|auth\.json|README/.test(file),
      ),
    ).toEqual([]);
    expect(read).not.toContain(path.join(home.home, `${code}/state.vscdb`));
    expect(result.folders.map((folder) => folder.path)).toContain(path.join(home.home, "code/dbos/.crush"));

    const bySource = await (await db()).thread.groupBy({ by: ["source"], _count: true });
    const sources = Object.fromEntries(bySource.map((row) => [row.source, row._count]));
    for (const source of [
      "import:cursor",
      "import:cline",
      "import:roo-code",
      "import:kilo-code",
      "import:amp",
      "import:goose",
      "import:qwen-code",
      "import:crush",
      "import:continue",
      "import:factory-droid",
    ])
      expect(sources[source] ?? 0, source).toBeGreaterThan(0);

    // A second sync reads nothing: every file is as it was.
    const before = read.length;
    const again = await sync.sync();
    expect(again.folders.every((folder) => folder.imported === 0 && folder.failed === 0)).toBe(true);
    expect(read.slice(before)).toEqual([]);
  });
});
