// How the thread page shows tool calls (lib/domain/tools/tool-view.ts), on each agent's tool calls
// as the real fixtures hold them (fixtures/real), imported as the app imports them: the expected
// values are read from the raw arguments here. Shapes no fixture has are the agents' documented ones.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { describeToolCall, toolHint, toolViewText, type ToolView } from "@/lib/domain/tools/tool-view";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { detectFormat, parseDetected } from "./index";

type Call = Extract<TurnPart, { type: "tool_call" }>;

const FIXTURES = {
  codex: "fixtures/real/codex/sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl",
  claudeDemo: "fixtures/real/claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
  claudeSpotter:
    "fixtures/real/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
  claudeSession:
    "fixtures/real/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
  claudeGrep:
    "fixtures/real/claude-code/projects/-Users-jnarowski-Dev-sourceborn-src-agent-workflows-monorepo-v2/10cd5911-8704-4996-9e33-32010589c357.jsonl",
  gemini:
    "fixtures/real/gemini-cli/tmp/9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea/chats/session-2026-04-23T12-52-0ab84937.jsonl",
  opencode: "fixtures/real/opencode/export/ses_39b7f9e89ffe7J0WzLzYrUt4eW.json",
  pi: "fixtures/real/pi/agent/sessions/--Users-badlogic-workspaces-pi-mono--/2025-12-09T00-53-29-825Z_ffae836b-9420-4060-ac13-7745215f90ff.jsonl",
  copilot: "fixtures/real/copilot/session-state/96ef38f0-9d09-45c3-8124-6448c36090ed/events.jsonl",
  copilotLegacy: "fixtures/real/copilot/history-session-state/session_06141331-92e8-4e9e-8bbb-9b7a729eb01a_1760182820882.json",
  chatgpt: "fixtures/real/chatgpt/conversations.json",
} as const;

const calls: Record<keyof typeof FIXTURES, Call[]> = {} as never;

beforeAll(async () => {
  for (const [agent, file] of Object.entries(FIXTURES)) {
    const parsed = await parseDetected(file, detectFormat(file, readFileSync(file, "utf8")));
    calls[agent as keyof typeof FIXTURES] = parsed.threads.flatMap((t) =>
      t.turns.flatMap((turn) => (turn.parts ?? []).filter((p): p is Call => p.type === "tool_call")),
    );
  }
});

const args = (call: Call) => call.arguments as JsonObject;
const named = (agent: keyof typeof FIXTURES, name: string, where: (a: JsonObject) => boolean = () => true) => {
  const found = calls[agent].filter((c) => c.name === name && where(args(c)));
  expect(found.length, `${agent} ${name}`).toBeGreaterThan(0);
  return found;
};
const view = (call: Call) => describeToolCall(call.name, call.arguments);
function as<K extends ToolView["kind"]>(v: ToolView, kind: K): Extract<ToolView, { kind: K }> {
  expect(v.kind).toBe(kind);
  return v as Extract<ToolView, { kind: K }>;
}

describe("Codex", () => {
  it("shell argv [bash, -lc, script] is the script, multi-line scripts with real line breaks", () => {
    for (const call of named("codex", "shell", (a) => !String((a.command as string[])[2]).startsWith("applypatch"))) {
      const argv = args(call).command as string[];
      const shell = as(view(call), "shell");
      expect(shell.command).toBe(argv[2]);
      expect(shell.command).not.toContain("\\n");
    }
    const script = named("codex", "shell", (a) => String((a.command as string[])[2]).startsWith("set -e"))[0]!;
    expect(as(view(script), "shell").command.split("\n").length).toBeGreaterThan(5);
  });

  it("an applypatch heredoc in a shell call is the patch: its files and lines as a diff", () => {
    const patches = named("codex", "shell", (a) => String((a.command as string[])[2]).startsWith("applypatch"));
    const goMod = patches.find((c) => String((args(c).command as string[])[2]).includes("Update File: go.mod"))!;
    const patch = as(view(goMod), "patch");
    expect(patch.viaShell).toBe(true);
    expect(patch.files).toEqual([{ path: "go.mod", action: "update", moveTo: null, diff: expect.any(String) }]);
    const script = (args(goMod).command as string[])[2]!;
    const body = script.slice(script.indexOf("*** Update File: go.mod\n") + 24, script.indexOf("*** End Patch") - 1);
    expect(patch.files[0]!.diff).toBe(body);
    expect(patch.files[0]!.diff.split("\n")).toContain("-go 1.24.0");
    expect(patch.files[0]!.diff.split("\n")).toContain("+go 1.24");
    expect(toolHint(patch)).toBe("go.mod");
    // The empty patch ("*** Begin Patch\n*** End Patch") names no file: shown as the command.
    const empty = patches.find((c) => !(args(c).command as string[])[2]!.includes("File:"))!;
    expect(as(view(empty), "shell").command).toContain("*** Begin Patch\n*** End Patch");
  });

  it("update_plan is a plan of steps with their status", () => {
    for (const call of named("codex", "update_plan")) {
      const plan = as(view(call), "plan");
      const steps = args(call).plan as JsonObject[];
      expect(plan.items).toEqual(steps.map((s) => ({ text: s.step, status: s.status })));
      expect(plan.note).toBe((args(call).explanation as string | undefined) ?? null);
    }
  });

  it("exec_command (cmd, workdir), local_shell (an exec action) and a custom apply_patch (raw text)", () => {
    expect(describeToolCall("exec_command", JSON.stringify({ cmd: "npm test\nnpm run lint", workdir: "/repo" }))).toMatchObject({
      kind: "shell",
      command: "npm test\nnpm run lint",
      workdir: "/repo",
    });
    expect(describeToolCall("local_shell", { type: "exec", command: ["bash", "-lc", "echo hi"], working_directory: "/w" })).toMatchObject({
      kind: "shell",
      command: "echo hi",
      workdir: "/w",
    });
    expect(describeToolCall("local_shell", { action: { type: "exec", command: ["git", "commit", "-m", "it's done"] } })).toMatchObject({
      command: "git commit -m 'it'\\''s done'",
    });
    const custom = describeToolCall(
      "apply_patch",
      "*** Begin Patch\n*** Add File: a.txt\n+hello\n*** Delete File: b.txt\n*** Update File: c.ts\n*** Move to: d.ts\n@@ class C\n-x\n+y\n*** End of File\n*** End Patch",
    );
    expect(as(custom, "patch").files).toEqual([
      { path: "a.txt", action: "add", moveTo: null, diff: "+hello" },
      { path: "b.txt", action: "delete", moveTo: null, diff: "" },
      { path: "c.ts", action: "update", moveTo: "d.ts", diff: "@@ class C\n-x\n+y" },
    ]);
    expect(
      as(describeToolCall("shell", { command: ["apply_patch", "*** Begin Patch\n*** Add File: x\n+1\n*** End Patch"] }), "patch").files[0]!
        .path,
    ).toBe("x");
    expect(
      as(
        describeToolCall("exec_command", {
          cmd: "cd /repo && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: y\n+2\n*** End Patch\nEOF",
        }),
        "patch",
      ).files[0]!.diff,
    ).toBe("+2");
  });
});

describe("Claude Code", () => {
  it("Bash: the command and its description, no JSON", () => {
    for (const call of [...named("claudeSession", "Bash"), ...named("claudeDemo", "Bash")]) {
      const shell = as(view(call), "shell");
      expect(shell.command).toBe(args(call).command);
      expect(shell.description).toBe((args(call).description as string | undefined) ?? null);
    }
  });

  it("Read, Glob, Grep, WebSearch, WebFetch, Task and TodoWrite", () => {
    for (const call of named("claudeDemo", "Read"))
      expect(view(call)).toEqual({ kind: "read", paths: [args(call).file_path], range: null });
    for (const call of named("claudeDemo", "Glob"))
      expect(view(call)).toMatchObject({
        kind: "search",
        mode: "glob",
        pattern: args(call).pattern,
        path: (args(call).path as string | undefined) ?? null,
      });
    const grep = named("claudeGrep", "Grep")[0]!;
    expect(view(grep)).toMatchObject({ kind: "search", mode: "grep", pattern: args(grep).pattern, path: args(grep).path });
    for (const call of named("claudeSpotter", "WebSearch")) expect(view(call)).toEqual({ kind: "web-search", query: args(call).query });
    for (const call of named("claudeSpotter", "WebFetch"))
      expect(view(call)).toEqual({ kind: "web-fetch", url: args(call).url, prompt: args(call).prompt });
    for (const call of named("claudeSession", "Task")) {
      expect(view(call)).toEqual({
        kind: "task",
        description: args(call).description,
        prompt: args(call).prompt,
        agent: args(call).subagent_type,
      });
    }
    const todo = named("claudeDemo", "TodoWrite")[0]!;
    expect(as(view(todo), "plan").items).toEqual((args(todo).todos as JsonObject[]).map((t) => ({ text: t.content, status: t.status })));
  });

  it("Edit and MultiEdit are diffs of the file named", () => {
    const edit = named("claudeDemo", "Edit")[0]!;
    const diff = as(view(edit), "edit");
    expect(diff.path).toBe(args(edit).file_path);
    const removed = diff.diff
      .split("\n")
      .filter((l) => l.startsWith("-"))
      .map((l) => l.slice(1));
    const added = diff.diff
      .split("\n")
      .filter((l) => l.startsWith("+"))
      .map((l) => l.slice(1));
    expect(removed.every((l) => (args(edit).old_string as string).includes(l))).toBe(true);
    expect(added.every((l) => (args(edit).new_string as string).includes(l))).toBe(true);
    expect(added).toContain((args(edit).new_string as string).split("\n").find((l) => !(args(edit).old_string as string).includes(l)));

    const multi = named("claudeDemo", "MultiEdit")[0]!;
    const edits = args(multi).edits as JsonObject[];
    const text = as(view(multi), "edit").diff;
    expect(text.split("\n").filter((l) => /^@@ edit \d+ of \d+ @@$/.test(l))).toHaveLength(edits.length);
    expect(text).not.toContain("\\n");
  });
});

describe("Gemini CLI", () => {
  it("read_file, write_file and replace", () => {
    for (const call of named("gemini", "read_file")) {
      const { offset, limit, start_line: start } = args(call) as { offset?: number; limit?: number; start_line?: number };
      // An offset counts from 0, a start line from 1.
      const first = offset !== undefined ? offset + 1 : start;
      const range = first === undefined ? null : limit === undefined ? `from line ${first}` : `lines ${first}–${first + limit - 1}`;
      expect(view(call)).toEqual({ kind: "read", paths: [args(call).file_path], range });
    }
    expect(named("gemini", "read_file", (a) => typeof a.start_line === "number").length).toBeGreaterThan(0);
    for (const call of named("gemini", "write_file"))
      expect(view(call)).toEqual({ kind: "write", path: args(call).file_path, content: args(call).content });
    const replace = named("gemini", "replace")[0]!;
    const edit = as(view(replace), "edit");
    expect(edit.path).toBe(args(replace).file_path);
    expect(edit.note).toBe(args(replace).instruction);
    expect(edit.diff).toBe(`-${args(replace).old_string}\n+${args(replace).new_string}`);
  });

  it("read_file counts lines from 0; run_shell_command, web_fetch and google_web_search", () => {
    expect(describeToolCall("read_file", { file_path: "a.ts", offset: 10, limit: 5 })).toMatchObject({ range: "lines 11–15" });
    expect(describeToolCall("run_shell_command", { command: "ls", dir_path: "src", description: "List" })).toMatchObject({
      kind: "shell",
      command: "ls",
      workdir: "src",
      description: "List",
    });
    expect(describeToolCall("web_fetch", { prompt: "Summarise https://example.com" })).toEqual({
      kind: "web-fetch",
      url: null,
      prompt: "Summarise https://example.com",
    });
    expect(describeToolCall("google_web_search", { query: "vitest" })).toEqual({ kind: "web-search", query: "vitest" });
  });
});

describe("OpenCode, Pi and Copilot CLI", () => {
  it("OpenCode's apply_patch (patchText) is a patch; task a sub-agent; skill readable fields", () => {
    const call = named("opencode", "apply_patch")[0]!;
    const patch = as(view(call), "patch");
    const headers = [...(args(call).patchText as string).matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.*)$/gm)].map((m) => m[1]);
    expect(patch.files.map((f) => f.path)).toEqual(headers);
    expect(patch.files[0]!.diff.split("\n").some((l) => l.startsWith("+"))).toBe(true);
    const task = named("opencode", "task")[0]!;
    expect(view(task)).toEqual({
      kind: "task",
      description: args(task).description,
      prompt: args(task).prompt,
      agent: args(task).subagent_type,
    });
    const skill = named("opencode", "skill")[0]!;
    expect(view(skill)).toEqual({ kind: "fields", fields: [{ key: "name", value: args(skill).name }] });
  });

  it("Pi's bash, edit (oldText/newText), write and read (offset from 1)", () => {
    for (const call of named("pi", "bash")) expect(view(call)).toMatchObject({ kind: "shell", command: args(call).command });
    const edit = named("pi", "edit")[0]!;
    expect(view(edit)).toMatchObject({ kind: "edit", path: args(edit).path });
    expect(as(view(edit), "edit").diff).toContain(`+${(args(edit).newText as string).split("\n")[0]}`);
    const write = named("pi", "write")[0]!;
    expect(view(write)).toEqual({ kind: "write", path: args(write).path, content: args(write).content });
    for (const call of named("pi", "read", (a) => typeof a.offset === "number")) {
      const { offset, limit } = args(call) as { offset: number; limit: number };
      expect(view(call)).toEqual({ kind: "read", paths: [args(call).path], range: `lines ${offset}–${offset + limit - 1}` });
    }
  });

  it("Copilot's bash, view, web_search, str_replace_editor, and report_intent as fields", () => {
    for (const call of named("copilot", "bash"))
      expect(view(call)).toMatchObject({ kind: "shell", command: args(call).command, description: args(call).description });
    for (const call of named("copilot", "view")) expect(view(call)).toEqual({ kind: "read", paths: [args(call).path], range: null });
    for (const call of named("copilot", "web_search")) expect(view(call)).toEqual({ kind: "web-search", query: args(call).query });
    for (const call of named("copilotLegacy", "str_replace_editor"))
      expect(view(call)).toMatchObject({ kind: "read", paths: [args(call).path] });
    const intent = named("copilot", "report_intent")[0]!;
    expect(view(intent)).toEqual({ kind: "fields", fields: [{ key: "intent", value: args(intent).intent }] });
    // Documented shapes of Copilot CLI's edit and create (no real session in the fixtures uses them).
    expect(describeToolCall("edit", { path: "a.rs", old_str: "a\nb", new_str: "a\nc" })).toEqual({
      kind: "edit",
      path: "a.rs",
      diff: " a\n-b\n+c",
      note: null,
    });
    expect(describeToolCall("create", { path: "n.md", file_text: "# Title\n" })).toEqual({
      kind: "write",
      path: "n.md",
      content: "# Title\n",
    });
    expect(describeToolCall("str_replace_editor", { command: "view", path: "x", view_range: [10, -1] })).toMatchObject({
      range: "from line 10",
    });
    expect(describeToolCall("str_replace_editor", { command: "insert", path: "x", insert_line: 4, new_str: "y" })).toMatchObject({
      kind: "edit",
      diff: "+y",
      note: "Inserted after line 4.",
    });
  });
});

describe("anything else", () => {
  it("ChatGPT's browser code (a string) is text; unknown tools are readable fields, never JSON", () => {
    for (const call of named("chatgpt", "browser")) expect(view(call)).toEqual({ kind: "text", text: call.arguments });
    const value: JsonValue = { query: "a\nb", options: { depth: 2, tags: ["x", "y z"] }, rows: [{ id: 1, ok: true }], none: null };
    const fields = as(describeToolCall("mcp__server__lookup", value), "fields").fields;
    expect(fields).toEqual([
      { key: "query", value: "a\nb" },
      { key: "options", value: "depth: 2\ntags:\n  - x\n  - y z" },
      { key: "rows", value: "- id: 1\n  ok: true" },
      { key: "none", value: "none" },
    ]);
    for (const field of fields) expect(field.value).not.toMatch(/[{}"]/);
  });

  it("no arguments, empty objects and unparsable strings", () => {
    expect(describeToolCall("x", undefined)).toEqual({ kind: "none" });
    expect(describeToolCall("x", {})).toEqual({ kind: "none" });
    expect(describeToolCall("x", "{not json")).toEqual({ kind: "text", text: "{not json" });
    expect(describeToolCall("Bash", { description: "no command" })).toMatchObject({ kind: "fields" });
  });

  it("an unknown name with an edit's shape is an edit; a patch's shape a patch", () => {
    expect(describeToolCall("my_editor", { filePath: "f", oldString: "a", newString: "b" })).toMatchObject({
      kind: "edit",
      path: "f",
      diff: "-a\n+b",
    });
    expect(describeToolCall("custom", { input: "*** Begin Patch\n*** Add File: z\n+z\n*** End Patch" })).toMatchObject({ kind: "patch" });
  });

  it("gives each view's long texts back by slot, as the page loads them in full", () => {
    const shell = describeToolCall("Bash", { command: "echo 1\necho 2" });
    expect(toolViewText(shell, "command")).toBe("echo 1\necho 2");
    const patch = describeToolCall("apply_patch", { input: "*** Begin Patch\n*** Add File: a\n+1\n*** Add File: b\n+2\n*** End Patch" });
    expect(toolViewText(patch, "file:1")).toBe("+2");
    expect(toolViewText(patch, "file:2")).toBeNull();
    expect(toolViewText(describeToolCall("x", { a: "1", b: "2" }), "field:1")).toBe("2");
    expect(toolViewText(shell, "diff")).toBeNull();
  });

  it("is linear on hostile input: hundreds of thousands of patch lines, quotes, shared lines and levels of nesting", () => {
    const started = performance.now();
    describeToolCall("apply_patch", "*** Begin Patch\n" + "*** Update File: x\n@@\n-a\n+b\n".repeat(20_000));
    describeToolCall("shell", { command: ["bash", "-lc", "cd " + "a".repeat(1_000_000)] });
    describeToolCall("shell", { command: ["x", "'".repeat(300_000)] });
    describeToolCall("Edit", { file_path: "f", old_string: "a\n".repeat(200_000), new_string: "a\n".repeat(199_999) + "b\n" });
    let nested: JsonValue = "leaf";
    for (let i = 0; i < 10_000; i++) nested = { k: nested };
    describeToolCall("unknown", { nested });
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
