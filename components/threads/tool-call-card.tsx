import Link from "next/link";
import type { ReactNode } from "react";
import { displayTitle } from "@/lib/domain/threads/title";
import { describeToolCall, TOOL_KIND_LABELS, toolHint, type ToolView } from "@/lib/domain/tools/tool-view";
import type { Turn } from "@/lib/domain/types";
import { contentPreview, formatJson, toolResultText } from "@/lib/format";
import { resultDiff } from "./part-text";
import { CHEVRON, PartText, SUMMARY } from "./plain-text";
import { RawToggle } from "./raw-toggle";
import { turnAnchor, type ToolCallPart, type ToolIndex, type ToolResultPart } from "./tool-index";

type Source = { threadId: string; index: number };

export function ErrorLabel() {
  return <span className="rounded border border-red-300 bg-red-100 px-1 py-px text-[11px] leading-4 font-medium text-red-800">error</span>;
}

const HINT_CHARS = 120;

/** The hint on one line, cut to a summary's length. */
function oneLine(text: string | null): string | null {
  const line = text?.replace(/\s+/g, " ").trim() ?? "";
  if (line === "") return null;
  return line.length > HINT_CHARS ? `${contentPreview(line, HINT_CHARS - 1)}…` : line;
}

/**
 * A tool call as a card: collapsed to its kind, name and what it did in one line; opened, the call
 * as a person reads it (a command, a diff, a path, a query: lib/domain/tools/tool-view.ts), its
 * result, and the raw arguments behind a toggle of their own.
 */
export function ToolCallCard({ part, partIndex, turn, tools }: { part: ToolCallPart; partIndex: number; turn: Turn; tools: ToolIndex }) {
  const result = tools.results.get(part.id);
  const failed = result?.part.isError === true;
  const subagents = tools.subagents.get(part.id) ?? [];
  const view = describeToolCall(part.name, part.arguments);
  const hint = oneLine(toolHint(view));
  return (
    <div
      className={`min-w-0 rounded-md border text-sm ${failed ? "border-red-300 bg-red-50/40" : "border-zinc-200 bg-zinc-50"}`}
      data-testid="tool-call"
      data-tool-kind={view.kind}
    >
      <details className="group">
        <summary className={SUMMARY}>
          <span aria-hidden className={CHEVRON}>
            ▸
          </span>
          <span className="text-xs text-zinc-500">{TOOL_KIND_LABELS[view.kind]}</span>
          <span className="min-w-0 font-mono font-medium break-all text-zinc-900" data-testid="tool-name">
            {part.name}
          </span>
          {hint && <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-600">{hint}</span>}
          <span className="ml-auto flex items-center gap-2 text-xs text-zinc-500">
            {failed ? <ErrorLabel /> : result ? null : <span>{tools.partial ? "result not loaded" : "no result"}</span>}
          </span>
        </summary>
        <div className="space-y-3 border-t border-zinc-200 px-3 py-2">
          <div data-testid="tool-view">
            <ToolViewBody view={view} source={turn} partIndex={partIndex} />
          </div>
          <div data-testid="tool-result" className={failed ? "rounded border border-red-200 bg-red-50 p-2" : undefined}>
            <div className="mb-1 flex flex-wrap items-center gap-2 text-xs font-medium tracking-wide text-zinc-600 uppercase">
              Result
              {failed && <ErrorLabel />}
              {result && <RunFacts part={result.part} />}
              {result && result.turnId !== turn.id && (
                <a href={`#${turnAnchor(result.turnId)}`} className="font-normal tracking-normal text-indigo-700 normal-case underline">
                  turn #{result.number}
                </a>
              )}
            </div>
            {result ? (
              <div className={failed ? "text-red-900" : undefined}>
                <PartText text={toolResultText(result.part.content)} source={result} partIndex={result.partIndex} field="content" />
                <ResultDiff part={result.part} source={result} partIndex={result.partIndex} />
              </div>
            ) : (
              <p className="text-xs text-zinc-600 italic">
                {tools.partial ? "No result in the turns loaded around this one" : "No result recorded"}
              </p>
            )}
          </div>
          <RawToggle label="Raw arguments" testId="tool-raw">
            <p className="text-xs text-zinc-600">
              Call id <span className="font-mono break-all text-zinc-700">{part.id}</span>
            </p>
            <div data-testid="tool-arguments">
              <PartText text={formatJson(part.arguments)} source={turn} partIndex={partIndex} field="arguments" />
            </div>
          </RawToggle>
        </div>
      </details>
      {subagents.map((child) => (
        <p key={child.id} className="border-t border-zinc-200 px-3 py-2 text-sm break-words">
          <Link href={`/threads/${child.id}`} className="text-indigo-700 underline" data-testid="subagent-link">
            Sub-agent: {displayTitle(child.title)}
          </Link>
        </p>
      ))}
    </div>
  );
}

/** Exit code and duration of a command, where the agent recorded them (Codex does). */
function RunFacts({ part }: { part: ToolResultPart }) {
  const exit = typeof part.exitCode === "number" ? part.exitCode : null;
  const seconds =
    typeof part.durationSeconds === "number" ? part.durationSeconds : typeof part.durationMs === "number" ? part.durationMs / 1000 : null;
  if (exit === null && seconds === null) return null;
  return (
    <span className="font-normal tracking-normal normal-case" data-testid="tool-run">
      {exit !== null && <span className={exit === 0 ? "text-zinc-600" : "font-medium text-red-800"}>exit {exit}</span>}
      {exit !== null && seconds !== null && " · "}
      {seconds !== null && <span className="text-zinc-600">{seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s</span>}
    </span>
  );
}

/** A result's diff (an edit's change), below what the model was told, coloured as git colours it. */
export function ResultDiff({ part, source, partIndex }: { part: ToolResultPart; source: Source; partIndex: number }) {
  const diff = resultDiff(part);
  if (diff === null) return null;
  return (
    <div className="mt-2" data-testid="tool-diff">
      <p className="mb-1 text-xs font-medium tracking-wide text-zinc-600 uppercase">Diff</p>
      <PartText text={diff} source={source} partIndex={partIndex} field="diff" diff />
    </div>
  );
}

const LABEL = "text-xs font-medium tracking-wide text-zinc-600 uppercase";

/** A few short facts (a path, a pattern, a URL) as a list of terms and values. */
function Facts({ items }: { items: [string, ReactNode | null][] }) {
  const shown = items.filter(([, value]) => value !== null && value !== "");
  if (shown.length === 0) return null;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {shown.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-zinc-600">{term}</dt>
          <dd className="min-w-0 font-mono break-all whitespace-pre-wrap text-zinc-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Heading({ children }: { children: ReactNode }) {
  return <p className={`mb-1 ${LABEL}`}>{children}</p>;
}

const ACTIONS = { add: "Add", update: "Update", delete: "Delete" } as const;

/** The call as a person reads it, by kind. */
function ToolViewBody({ view, source, partIndex }: { view: ToolView; source: Source; partIndex: number }) {
  const slot = (name: string, text: string, diff = false) => (
    <PartText text={text} source={source} partIndex={partIndex} field="view" slot={name} diff={diff} />
  );
  const promptBlock = (prompt: string) => (
    <div>
      <Heading>Prompt</Heading>
      {slot("prompt", prompt)}
    </div>
  );
  switch (view.kind) {
    case "shell":
      return (
        <div data-testid="tool-command">
          <Heading>
            Command{view.background ? " (in the background)" : ""}
            {view.workdir && (
              <span className="font-normal tracking-normal normal-case">
                {" "}
                in <span className="font-mono text-zinc-800">{view.workdir}</span>
              </span>
            )}
          </Heading>
          {view.description && <p className="mb-1 text-xs text-zinc-700">{view.description}</p>}
          {slot("command", view.command)}
        </div>
      );
    case "patch":
      return (
        <div className="space-y-2" data-testid="tool-patch">
          {view.viaShell && (
            <p className="text-xs text-zinc-600">
              Applied with apply_patch from a shell command{view.workdir ? ` in ${view.workdir}` : ""}.
            </p>
          )}
          {view.files.map((file, i) => (
            <div key={i}>
              <p className="mb-1 text-xs break-all text-zinc-700" data-testid="patch-file">
                <span className="font-medium">{ACTIONS[file.action]}</span> <span className="font-mono">{file.path}</span>
                {file.moveTo && <span className="font-mono"> → {file.moveTo}</span>}
              </p>
              {file.action === "delete" ? <p className="text-xs text-zinc-600 italic">File deleted</p> : slot(`file:${i}`, file.diff, true)}
            </div>
          ))}
        </div>
      );
    case "edit":
      return (
        <div data-testid="tool-edit">
          <p className="mb-1 text-xs break-all text-zinc-700">
            <span className="font-medium">Edit</span> <span className="font-mono">{view.path ?? "(no path given)"}</span>
          </p>
          {view.note && <p className="mb-1 text-xs text-zinc-700">{view.note}</p>}
          {slot("diff", view.diff, true)}
        </div>
      );
    case "write":
      return (
        <div data-testid="tool-write">
          <p className="mb-1 text-xs break-all text-zinc-700">
            <span className="font-medium">New content of</span> <span className="font-mono">{view.path ?? "(no path given)"}</span>
          </p>
          {slot("content", view.content)}
        </div>
      );
    case "read":
      return (
        <Facts
          items={[
            [view.paths.length > 1 ? "Files" : "File", view.paths.join("\n")],
            ["Range", view.range],
          ]}
        />
      );
    case "search":
      return (
        <Facts
          items={[
            [view.mode === "glob" ? "Files matching" : "Pattern", view.pattern],
            ["In", view.path],
            ["Only", view.filter],
          ]}
        />
      );
    case "web-fetch":
      return (
        <div className="space-y-2">
          <Facts items={[["URL", view.url]]} />
          {view.prompt && promptBlock(view.prompt)}
        </div>
      );
    case "web-search":
      return <Facts items={[["Query", view.query]]} />;
    case "task":
      return (
        <div className="space-y-2">
          <Facts
            items={[
              ["Task", view.description],
              ["Agent", view.agent],
            ]}
          />
          {view.prompt && promptBlock(view.prompt)}
        </div>
      );
    case "plan":
      return (
        <div>
          {view.note && <p className="mb-1 text-xs text-zinc-700">{view.note}</p>}
          <ul className="space-y-0.5 text-xs" data-testid="tool-plan">
            {view.items.map((item, i) => (
              <li key={i} className="flex gap-2">
                <span className="w-20 shrink-0 text-zinc-600">{item.status?.replaceAll("_", " ") ?? ""}</span>
                <span className={`min-w-0 break-words ${item.status === "completed" ? "text-zinc-600 line-through" : "text-zinc-900"}`}>
                  {item.text}
                </span>
              </li>
            ))}
          </ul>
        </div>
      );
    case "fields":
      return (
        <dl className="space-y-2 text-xs" data-testid="tool-fields">
          {view.fields.map((field, i) => (
            <div key={i}>
              <dt className="font-mono text-zinc-600">{field.key}</dt>
              <dd className="min-w-0">{slot(`field:${i}`, field.value)}</dd>
            </div>
          ))}
        </dl>
      );
    case "text":
      return slot("text", view.text);
    case "none":
      return <p className="text-xs text-zinc-600 italic">No arguments</p>;
  }
}
