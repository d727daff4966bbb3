/**
 * Tool calls in the HTML export as the thread page shows them (components/threads/tool-call-card.tsx):
 * the kind, the tool's name and a one-line hint; the call as a person reads it (a command, a
 * coloured diff, a path, a query: lib/domain/tools/tool-view.ts), its result folded (open when
 * short), the raw arguments folded, and the sub-agents it started below.
 */
import { describeToolCall, TOOL_KIND_LABELS, toolHint, type ToolView } from "@/lib/domain/tools/tool-view";
import type { TurnPart } from "@/lib/domain/types";
import { contentPreview, formatInteger, formatJson, toolResultText } from "@/lib/format";
import { toolViewFacts } from "./facts";
import { diffText, escapeHtml, fold, isLong, preText, sizeNote } from "./html-text";

export type ToolCallPart = Extract<TurnPart, { type: "tool_call" }>;
export type ToolResultPart = Extract<TurnPart, { type: "tool_result" }>;

const HINT_CHARS = 120;
const ERROR = `<span class="error-label">error</span>`;
const ACTIONS = { add: "Add", update: "Update", delete: "Delete" } as const;

function oneLine(text: string | null): string | null {
  const line = text?.replace(/\s+/g, " ").trim() ?? "";
  if (line === "") return null;
  return line.length > HINT_CHARS ? `${contentPreview(line, HINT_CHARS - 1)}…` : line;
}

const label = (text: string) => `<p class="label">${text}</p>`;
const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

/** A few short facts as a list of terms and values. */
function facts(items: [string, string | null][]): string {
  const shown = items.filter((item): item is [string, string] => item[1] !== null && item[1] !== "");
  if (shown.length === 0) return "";
  return `<dl class="facts">${shown.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd><code>${escapeHtml(value)}</code></dd>`).join("")}</dl>`;
}

/** The call as a person reads it, by kind. */
function viewBody(view: ToolView): string {
  const prompt = (text: string | null) => (text ? `${label("Prompt")}${preText(text)}` : "");
  switch (view.kind) {
    case "shell": {
      const where = view.workdir ? ` in ${code(view.workdir)}` : "";
      const description = view.description ? `<p class="small">${escapeHtml(view.description)}</p>` : "";
      return `${label(`Command${view.background ? " (in the background)" : ""}${where}`)}${description}${preText(view.command)}`;
    }
    case "patch":
      return [
        view.viaShell
          ? `<p class="small">Applied with apply_patch from a shell command${view.workdir ? ` in ${code(view.workdir)}` : ""}.</p>`
          : "",
        ...view.files.map(
          (file) =>
            `<p class="small"><strong>${ACTIONS[file.action]}</strong> ${code(file.path)}${file.moveTo ? ` → ${code(file.moveTo)}` : ""}</p>` +
            (file.action === "delete" ? `<p class="note">File deleted</p>` : diffText(file.diff)),
        ),
      ].join("");
    case "edit":
      return `<p class="small"><strong>Edit</strong> ${code(view.path ?? "(no path given)")}</p>${view.note ? `<p class="small">${escapeHtml(view.note)}</p>` : ""}${diffText(view.diff)}`;
    case "write":
      return `<p class="small"><strong>New content of</strong> ${code(view.path ?? "(no path given)")}</p>${preText(view.content)}`;
    case "read":
    case "search":
    case "web-search":
      return facts(toolViewFacts(view));
    case "web-fetch":
    case "task":
      return facts(toolViewFacts(view)) + prompt(view.prompt);
    case "plan":
      return `${view.note ? `<p class="small">${escapeHtml(view.note)}</p>` : ""}<ul class="plan">${view.items
        .map(
          (item) =>
            `<li class="${item.status === "completed" ? "done" : ""}"><span class="status">${escapeHtml(item.status?.replaceAll("_", " ") ?? "")}</span> ${escapeHtml(item.text)}</li>`,
        )
        .join("")}</ul>`;
    case "fields":
      return `<dl class="fields">${view.fields.map((field) => `<dt>${code(field.key)}</dt><dd>${preText(field.value)}</dd>`).join("")}</dl>`;
    case "text":
      return preText(view.text);
    case "none":
      return `<p class="note">No arguments</p>`;
  }
}

/** Exit code and duration of a command, where the agent recorded them. */
function runFacts(part: ToolResultPart): string {
  const exit = typeof part.exitCode === "number" ? `exit ${part.exitCode}` : null;
  const seconds =
    typeof part.durationSeconds === "number" ? part.durationSeconds : typeof part.durationMs === "number" ? part.durationMs / 1000 : null;
  const took = seconds === null ? null : `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const shown = [exit, took].filter(Boolean).join(" · ");
  return shown ? ` <span class="note">${shown}</span>` : "";
}

/** A result's text and its diff (an edit's change, where the agent recorded one). */
function resultBody(part: ToolResultPart): string {
  const diff = typeof part.diff === "string" && part.diff !== "" ? `${label("Diff")}${diffText(part.diff)}` : "";
  return preText(toolResultText(part.content), part.isError === true ? "plain failed" : "plain") + diff;
}

/** A result folded under "Result", open when short; `where` says where it was when not in the call's turn. */
export function resultFold(part: ToolResultPart, heading: string): string {
  const text = toolResultText(part.content);
  const summary = `${heading}${part.isError === true ? ` ${ERROR}` : ""}${runFacts(part)} ${sizeNote(`${formatInteger(text.length)} characters`)}`;
  return fold(summary, resultBody(part), { open: !isLong(text), className: `fold result${part.isError === true ? " failed" : ""}` });
}

/** A tool call's card: `result` is its result wherever it was (null: none recorded), `subagents` the HTML of the threads it started. */
export function toolCallHtml(part: ToolCallPart, result: { part: ToolResultPart; number: number } | null, subagents: string): string {
  const view = describeToolCall(part.name, part.arguments);
  const hint = oneLine(toolHint(view));
  const failed = result?.part.isError === true;
  const head = `<p class="tool-head"><span class="kind">${TOOL_KIND_LABELS[view.kind]}</span> <code class="tool-name">${escapeHtml(part.name)}</code>${hint ? ` <span class="hint">${escapeHtml(hint)}</span>` : ""}${failed ? ` ${ERROR}` : ""}</p>`;
  const body = isLong(toolViewLength(view)) ? fold("Call", viewBody(view)) : `<div class="tool-view">${viewBody(view)}</div>`;
  const resultHtml = result
    ? resultFold(result.part, `Result <span class="note">(turn #${result.number})</span>`)
    : `<p class="note">No result recorded</p>`;
  const raw = fold("Raw arguments", `<p class="note">Call id ${code(part.id)}</p>${preText(formatJson(part.arguments))}`, {
    className: "fold raw",
  });
  return `<div class="tool${failed ? " failed" : ""}" data-tool-kind="${view.kind}">${head}${body}${resultHtml}${raw}${subagents}</div>`;
}

/** A stand-in text for how long a view is: long calls (a big file written) start folded. */
function toolViewLength(view: ToolView): string {
  if (view.kind === "shell") return view.command;
  if (view.kind === "edit") return view.diff;
  if (view.kind === "write") return view.content;
  if (view.kind === "patch") return view.files.map((file) => file.diff).join("\n");
  if (view.kind === "fields") return view.fields.map((field) => field.value).join("\n");
  if (view.kind === "text") return view.text;
  return "";
}
