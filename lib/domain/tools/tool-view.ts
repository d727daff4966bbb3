/**
 * What a tool call did, as a person reads it, whichever agent made it: one view per kind of tool
 * (a shell command, a patch, an edit, a new file, a read, a search, a web fetch or search, a
 * sub-agent, a plan), classified by the tool's name and the shape of its arguments as each agent
 * writes them (fixtures/real: Claude Code, Codex, Gemini CLI, OpenCode, Pi, Copilot CLI, ChatGPT).
 * A tool no view fits shows its arguments as readable fields. The raw arguments stay as recorded:
 * the page offers them behind a toggle. Pure, linear in the arguments.
 */
import type { JsonObject, JsonValue } from "../types";
import { editsDiff, parseApplyPatch, type PatchFile } from "./patch";
import { readableFields, type ReadableField } from "./readable";
import { argvToCommand, patchInArgv, patchInShellCommand } from "./shell";

export type ToolView =
  | { kind: "shell"; command: string; workdir: string | null; description: string | null; background: boolean }
  | { kind: "patch"; files: PatchFile[]; viaShell: boolean; workdir: string | null }
  | { kind: "edit"; path: string | null; diff: string; note: string | null }
  | { kind: "write"; path: string | null; content: string }
  | { kind: "read"; paths: string[]; range: string | null }
  | { kind: "search"; mode: "grep" | "glob" | "list"; pattern: string | null; path: string | null; filter: string | null }
  | { kind: "web-fetch"; url: string | null; prompt: string | null }
  | { kind: "web-search"; query: string }
  | { kind: "task"; description: string | null; prompt: string | null; agent: string | null }
  | { kind: "plan"; items: { text: string; status: string | null }[]; note: string | null }
  | { kind: "fields"; fields: ReadableField[] }
  | { kind: "text"; text: string }
  | { kind: "none" };

export type ToolKind = ToolView["kind"];

/** A short name for each kind, shown before the tool's own name. */
export const TOOL_KIND_LABELS: Record<ToolKind, string> = {
  shell: "Shell",
  patch: "Patch",
  edit: "Edit",
  write: "Write",
  read: "Read",
  search: "Search",
  "web-fetch": "Web fetch",
  "web-search": "Web search",
  task: "Sub-agent",
  plan: "Plan",
  fields: "Tool",
  text: "Tool",
  none: "Tool",
};

const names = (...list: string[]) => new Set(list);
const SHELL = names(
  "bash",
  "shell",
  "exec_command",
  "local_shell",
  "local_shell_call",
  "run_shell_command",
  "shell_command",
  "container.exec",
  "execute_command",
  "run_command",
  "run_in_terminal",
  "terminal",
  "powershell",
);
const PATCH = names("apply_patch", "applypatch", "patch");
const EDIT = names("edit", "multiedit", "multi_edit", "replace", "str_replace", "edit_file", "notebookedit");
const EDITOR = names("str_replace_editor", "str_replace_based_edit_tool");
const WRITE = names("write", "create", "write_file", "create_file");
const READ = names("read", "view", "read_file", "read_many_files", "view_image", "cat");
const GREP = names("grep", "search_file_content", "grep_search", "rg", "ripgrep", "search_files");
const GLOB = names("glob", "find", "file_search", "find_files");
const LIST = names("ls", "list", "list_directory", "list_dir");
const FETCH = names("webfetch", "web_fetch", "fetch", "open_url", "browse", "fetch_url");
const SEARCH = names("websearch", "web_search", "google_web_search", "search_web", "web_search_preview");
const TASK = names("task", "agent", "dispatch_agent", "spawn_agent", "subagent", "delegate");
const PLAN = names("todowrite", "todo_write", "write_todos", "update_plan", "todo");

const PATH_KEYS = ["file_path", "filePath", "path", "absolute_path", "notebook_path", "target_file", "filename"];
const OLD_KEYS = ["old_string", "oldString", "oldText", "old_str", "old_text"];
const NEW_KEYS = ["new_string", "newString", "newText", "new_str", "new_text", "new_source"];
const CONTENT_KEYS = ["content", "file_text", "contents", "text"];
const DIR_KEYS = ["workdir", "working_directory", "cwd", "dir_path", "directory"];

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const isArgv = (value: JsonValue | undefined): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string");

/** The first of `keys` holding a non-empty string. */
function str(obj: JsonObject, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = obj[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return null;
}

/** The first of `keys` holding a string, empty included (an edit may remove text, or add to nothing). */
function text(obj: JsonObject, keys: string[]): string | null {
  for (const key of keys) if (typeof obj[key] === "string") return obj[key] as string;
  return null;
}

const num = (value: JsonValue | undefined): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : null;

/** Arguments some sources keep as a JSON string (OpenAI function calls), parsed; any other string kept. */
function parseToolArguments(args: JsonValue | undefined): JsonValue | undefined {
  if (typeof args !== "string") return args;
  const trimmed = args.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return args;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return args;
  }
}

/** The tool's name as the tables hold it: lower case, without a namespace ("functions.", "default_api:"). */
function normalName(name: string): string {
  const lower = name.trim().toLowerCase();
  if (lower === "container.exec") return lower;
  const cut = Math.max(lower.lastIndexOf("."), lower.lastIndexOf(":"));
  return cut >= 0 ? lower.slice(cut + 1) : lower;
}

/** How a call is shown (see the module's note). */
export function describeToolCall(name: string, rawArgs: JsonValue | undefined): ToolView {
  const args = parseToolArguments(rawArgs);
  const tool = normalName(name);
  if (args === undefined || args === null || (isObject(args) && Object.keys(args).length === 0)) return { kind: "none" };
  if (typeof args === "string") return stringView(tool, args);
  if (Array.isArray(args))
    return isArgv(args) && SHELL.has(tool)
      ? shellOf(argvToCommand(args), null, null, false, patchInArgv(args))
      : { kind: "fields", fields: readableFields(args) };
  if (!isObject(args)) return { kind: "text", text: String(args) };
  return objectView(tool, args) ?? shapeView(args) ?? { kind: "fields", fields: readableFields(args) };
}

/** Arguments that are one string: a patch (Codex's custom apply_patch), a command, or text (ChatGPT's browser code). */
function stringView(tool: string, args: string): ToolView {
  if (PATCH.has(tool) || args.trimStart().startsWith("*** Begin Patch")) {
    const files = parseApplyPatch(args);
    if (files) return { kind: "patch", files, viaShell: false, workdir: null };
  }
  if (SHELL.has(tool)) return shellOf(args, null, null, false);
  return args.trim() === "" ? { kind: "none" } : { kind: "text", text: args };
}

function objectView(tool: string, args: JsonObject): ToolView | null {
  if (SHELL.has(tool)) return shellView(args);
  if (PATCH.has(tool)) return patchView(args);
  if (EDITOR.has(tool)) return editorView(args);
  if (EDIT.has(tool)) return editView(args);
  if (WRITE.has(tool)) return writeView(args);
  if (READ.has(tool)) return readView(args, tool);
  if (GREP.has(tool)) return searchView(args, "grep");
  if (GLOB.has(tool)) return searchView(args, "glob");
  if (LIST.has(tool)) return searchView(args, "list");
  if (FETCH.has(tool)) return fetchView(args);
  if (SEARCH.has(tool)) return webSearchView(args);
  if (TASK.has(tool)) return taskView(args);
  if (PLAN.has(tool)) return planView(args);
  return null;
}

/** A tool by another name whose arguments say what it is: a patch, an edit, a command. */
function shapeView(args: JsonObject): ToolView | null {
  const patch = str(args, "patchText", "patch", "input");
  if (patch?.includes("*** Begin Patch")) return patchView(args);
  if (text(args, OLD_KEYS) !== null && text(args, NEW_KEYS) !== null) return editView(args);
  return null;
}

function shellOf(
  command: string,
  workdir: string | null,
  description: string | null,
  background: boolean,
  argvPatch: string | null = null,
): ToolView {
  const patch = argvPatch ?? patchInShellCommand(command);
  const files = patch === null ? null : parseApplyPatch(patch);
  if (files) return { kind: "patch", files, viaShell: true, workdir };
  return { kind: "shell", command, workdir, description, background };
}

/** Claude Code's Bash, Codex's shell (argv), exec_command (cmd) and local_shell (an exec action), Gemini's run_shell_command, OpenCode's, Pi's and Copilot's bash. */
function shellView(args: JsonObject): ToolView | null {
  const action = isObject(args.action) ? args.action : args;
  const command = action.command ?? action.cmd;
  const workdir = str(action, ...DIR_KEYS);
  const description = str(args, "description", "justification");
  const background = args.run_in_background === true || args.async === true || args.is_background === true;
  if (isArgv(command)) return shellOf(argvToCommand(command), workdir, description, background, patchInArgv(command));
  if (typeof command === "string" && command.trim() !== "") return shellOf(command, workdir, description, background);
  return null;
}

/** Codex's apply_patch as a function ({input}), OpenCode's ({patchText}). */
function patchView(args: JsonObject): ToolView | null {
  const patch = str(args, "input", "patchText", "patch");
  const files = patch === null ? null : parseApplyPatch(patch);
  return files ? { kind: "patch", files, viaShell: false, workdir: str(args, ...DIR_KEYS) } : null;
}

/** Claude Code's Edit/MultiEdit, Gemini's replace, OpenCode's, Pi's and Copilot's edit. */
function editView(args: JsonObject): ToolView | null {
  const path = str(args, ...PATH_KEYS);
  const notes: string[] = [];
  const instruction = str(args, "instruction", "description");
  if (instruction) notes.push(instruction);
  if (args.replace_all === true || args.replaceAll === true || args.allow_multiple === true) notes.push("Every occurrence is replaced.");
  const list = Array.isArray(args.edits) ? args.edits.filter(isObject) : null;
  if (list && list.length > 0) {
    const edits = list.map((edit) => ({ oldText: text(edit, OLD_KEYS) ?? "", newText: text(edit, NEW_KEYS) ?? "" }));
    return { kind: "edit", path, diff: editsDiff(edits), note: notes.join(" ") || null };
  }
  const oldText = text(args, OLD_KEYS);
  const newText = text(args, NEW_KEYS);
  if (newText === null) return null;
  if (oldText === null) {
    const line = num(args.insert_line);
    if (line === null) return null;
    notes.unshift(`Inserted after line ${line}.`);
  }
  return { kind: "edit", path, diff: editsDiff([{ oldText: oldText ?? "", newText }]), note: notes.join(" ") || null };
}

/** Copilot CLI's str_replace_editor (and Anthropic's text editor tool): its command says which kind. */
function editorView(args: JsonObject): ToolView | null {
  switch (args.command) {
    case "view":
      return readView(args, "view");
    case "create":
      return writeView(args);
    case "str_replace":
    case "insert":
      return editView(args);
    default:
      return null;
  }
}

function writeView(args: JsonObject): ToolView | null {
  const content = text(args, CONTENT_KEYS);
  return content === null ? null : { kind: "write", path: str(args, ...PATH_KEYS), content };
}

/** Gemini CLI's read_file and OpenCode's read (filePath) count an offset from line 0; the others from 1. */
function readView(args: JsonObject, tool: string): ToolView | null {
  const single = str(args, ...PATH_KEYS);
  const many = Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === "string") : [];
  const paths = single ? [single] : many;
  if (paths.length === 0) return null;
  return { kind: "read", paths, range: lineRange(args, tool === "read_file" || "filePath" in args) };
}

function lineRange(args: JsonObject, zeroBased: boolean): string | null {
  const range = args.view_range;
  if (Array.isArray(range) && range.length === 2) {
    const [from, to] = [num(range[0]), num(range[1])];
    if (from !== null) return to === null || to === -1 ? `from line ${from}` : `lines ${from}–${to}`;
  }
  const offset = num(args.offset);
  const limit = num(args.limit);
  const end = num(args.end_line);
  // start_line (Gemini CLI's newer read_file) counts from 1 everywhere; offset as the tool does.
  const first = offset !== null ? (zeroBased ? offset + 1 : Math.max(1, offset)) : num(args.start_line);
  if (first !== null && limit !== null) return `lines ${first}–${first + limit - 1}`;
  if (first !== null && end !== null) return `lines ${first}–${end}`;
  if (first !== null) return `from line ${first}`;
  if (limit !== null) return `first ${limit} lines`;
  return null;
}

function searchView(args: JsonObject, mode: "grep" | "glob" | "list"): ToolView | null {
  const pattern = mode === "list" ? null : str(args, "pattern", "regex", "query", "glob", "name");
  const path = str(args, "path", "dir_path", "directory", "cwd", "root", "absolute_path");
  const filter = mode === "grep" ? str(args, "glob", "include", "type", "file_pattern") : null;
  if (pattern === null && path === null) return null;
  return { kind: "search", mode, pattern, path, filter: filter === pattern ? null : filter };
}

function fetchView(args: JsonObject): ToolView | null {
  const urls = Array.isArray(args.urls) ? args.urls.filter((u): u is string => typeof u === "string") : [];
  const url = str(args, "url", "uri") ?? urls[0] ?? null;
  const prompt = str(args, "prompt", "query");
  return url === null && prompt === null ? null : { kind: "web-fetch", url, prompt };
}

function webSearchView(args: JsonObject): ToolView | null {
  const query = str(args, "query", "q", "search_query");
  return query === null ? null : { kind: "web-search", query };
}

function taskView(args: JsonObject): ToolView | null {
  const description = str(args, "description", "title");
  const prompt = str(args, "prompt", "task", "message");
  if (description === null && prompt === null) return null;
  return { kind: "task", description, prompt, agent: str(args, "subagent_type", "agent_type", "agent", "subagent") };
}

/** Claude Code's and OpenCode's todos, Codex's update_plan steps. */
function planView(args: JsonObject): ToolView | null {
  const list = Array.isArray(args.todos) ? args.todos : Array.isArray(args.plan) ? args.plan : null;
  if (!list) return null;
  const items = list
    .filter(isObject)
    .map((item) => ({ text: str(item, "content", "step", "text", "description", "title") ?? "", status: str(item, "status") }));
  return { kind: "plan", items, note: str(args, "explanation", "note") };
}

/** A one-line hint of what the call did, for its collapsed card; null when there is none. */
export function toolHint(view: ToolView): string | null {
  switch (view.kind) {
    case "shell":
      return view.command;
    case "patch":
      return view.files.map((f) => f.moveTo ?? f.path).join(", ");
    case "edit":
    case "write":
      return view.path;
    case "read":
      return [view.paths.join(", "), view.range].filter(Boolean).join(" · ");
    case "search":
      return [view.pattern, view.path && (view.pattern ? `in ${view.path}` : view.path)].filter(Boolean).join(" ");
    case "web-fetch":
      return view.url ?? view.prompt;
    case "web-search":
      return view.query;
    case "task":
      return view.description ?? view.prompt;
    case "plan":
      return `${view.items.length} ${view.items.length === 1 ? "step" : "steps"}`;
    case "fields":
      return view.fields.find((f) => f.value.trim() !== "")?.value ?? null;
    case "text":
      return view.text;
    case "none":
      return null;
  }
}

/**
 * The text of one slot of a view, which the page may carry only the start of and load in full:
 * "command", "diff", "content", "prompt", "text", "file:<n>" (a patch's file), "field:<n>".
 */
export function toolViewText(view: ToolView, slot: string): string | null {
  const [name, n] = slot.split(":");
  const at = Number(n);
  if (view.kind === "shell" && name === "command") return view.command;
  if (view.kind === "edit" && name === "diff") return view.diff;
  if (view.kind === "write" && name === "content") return view.content;
  if ((view.kind === "task" || view.kind === "web-fetch") && name === "prompt") return view.prompt;
  if (view.kind === "text" && name === "text") return view.text;
  if (view.kind === "patch" && name === "file") return view.files[at]?.diff ?? null;
  if (view.kind === "fields" && name === "field") return view.fields[at]?.value ?? null;
  return null;
}
