import Link from "next/link";
import type { ReactNode } from "react";
import { displayTitle } from "@/lib/domain/title";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { compactionLabel, contentPreview, formatCount, formatInteger, formatJson, plural, toolResultText } from "@/lib/format";
import { Collapsible } from "./collapsible";
import { AnsiText } from "./ansi";
import { LongText } from "./long-text";
import { MarkdownContent } from "./markdown";
import { PART_PREVIEW_CHARS, resultDiff, turnUrl, type PartField, type TextRef } from "./part-text";
import { argumentHint, turnAnchor, type ToolCallPart, type ToolIndex, type ToolResultPart, type TurnRef } from "./tool-index";

/** Past these, Markdown starts collapsed to a fixed height. */
export const LONG_CHARS = 2_000;
export const LONG_LINES = 30;
/**
 * Past this, the page carries only a preview of a turn's Markdown, loaded in full when expanded: a
 * 15 MB turn rendered as Markdown took 26 s and sent 31 MB.
 */
export const PREVIEW_CHARS = 8_192;

export const PRE = "max-w-full overflow-x-auto rounded bg-white p-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap text-zinc-800";
export const CHEVRON = "inline-block shrink-0 text-zinc-400 transition-transform group-open:rotate-90";
export const SUMMARY = "flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2 [&::-webkit-details-marker]:hidden";

/** Whether a turn is shown by its parts: it has some besides text (text-only turns show their content). */
export function hasStructuredParts(turn: Turn): boolean {
  return turn.parts?.some((p) => p.type !== "text") ?? false;
}

/** A compaction boundary, across the whole turn: "Compacted (auto) · 155,000 → 12,000 tokens". */
export function CompactionMarker({ part }: { part: Extract<TurnPart, { type: "compaction" }> }) {
  return (
    <div role="note" aria-label="Compaction boundary" data-testid="compaction" className="flex items-center gap-3 border-b border-violet-200 bg-violet-50 px-4 py-2 text-sm font-medium text-violet-900">
      <span aria-hidden className="h-px flex-1 bg-violet-300" />
      <span className="min-w-0 text-center break-words">{compactionLabel(part)}</span>
      <span aria-hidden className="h-px flex-1 bg-violet-300" />
    </div>
  );
}

/**
 * A turn's structured parts in order: text as Markdown, thinking collapsed, tool calls as cards
 * holding their result, results whose call is elsewhere as a compact link to it, images as labels.
 */
export function TurnParts({ turn, tools }: { turn: Turn; tools: ToolIndex }) {
  const parts = turn.parts ?? [];
  const compaction = parts.some((p) => p.type === "compaction");
  const hasText = parts.some((p) => p.type === "text" && p.text.trim() !== "");
  return (
    <div className="space-y-3">
      {parts.map((part, i) => (
        <Part key={i} part={part} partIndex={i} turn={turn} tools={tools} />
      ))}
      {/* A compaction turn's content is the summary that replaced the history before it. */}
      {compaction && !hasText && turn.content.trim() !== "" && <CompactionSummary turn={turn} />}
    </div>
  );
}

function Part({ part, partIndex, turn, tools }: { part: TurnPart; partIndex: number; turn: Turn; tools: ToolIndex }) {
  switch (part.type) {
    case "text":
      return part.text.trim() === "" ? null : <TextPart text={part.text} turn={turn} partIndex={partIndex} />;
    case "thinking":
      return <ThinkingPart text={part.text} redacted={part.redacted === true} turn={turn} partIndex={partIndex} />;
    case "tool_call":
      return <ToolCallCard part={part} partIndex={partIndex} turn={turn} tools={tools} />;
    case "tool_result": {
      const call = tools.calls.get(part.toolCallId);
      if (call?.turnId === turn.id) return null; // shown inside its call's card, just above
      return call ? <ResultOfCall part={part} call={call} /> : <OrphanResult part={part} partIndex={partIndex} turn={turn} partial={tools.partial} />;
    }
    case "image":
      return <ImagePlaceholder part={part} />;
    case "compaction":
      return null; // drawn across the turn, above its body
    default:
      return <span className="inline-block rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs break-all text-zinc-600">[{String((part as { type: unknown }).type)} part]</span>;
  }
}

function TextPart({ text, turn, partIndex }: { text: string; turn: Turn; partIndex: number }) {
  const lines = text.split("\n").length;
  if (text.length <= LONG_CHARS && lines <= LONG_LINES) return <MarkdownContent text={text} />;
  const preview = text.length > PREVIEW_CHARS ? contentPreview(text, PREVIEW_CHARS) : null;
  return (
    <Collapsible
      collapsedByDefault
      summary={`${plural(lines, "line")}, ${formatCount(text.length)} characters`}
      fullUrl={preview === null ? undefined : turnUrl(turn)}
      partIndex={preview === null ? undefined : partIndex}
    >
      <MarkdownContent text={preview ?? text} />
    </Collapsible>
  );
}

/** Plain text of a part's field: whole when short, else its start and a toggle that loads the rest. */
function PartText({ text, source, partIndex, field }: { text: string; source: { threadId: string; index: number }; partIndex: number; field: PartField }) {
  if (text === "") return <p className="text-xs text-zinc-500 italic">(empty)</p>;
  return <PlainText text={text} source={source} textRef={{ partIndex, field }} className={PRE} />;
}

/**
 * Untrusted text as a terminal shows it (escape codes styled, never raw): whole when short, else
 * its start and a toggle that loads the rest of what `textRef` points at.
 */
export function PlainText({ text, source, textRef, className }: { text: string; source: { threadId: string; index: number }; textRef: TextRef; className: string }) {
  if (text.length <= PART_PREVIEW_CHARS) {
    return (
      <pre className={className}>
        <AnsiText text={text} />
      </pre>
    );
  }
  return <LongText preview={contentPreview(text, PART_PREVIEW_CHARS)} total={text.length} fullUrl={turnUrl(source)} textRef={textRef} className={className} />;
}

function ThinkingPart({ text, redacted, turn, partIndex }: { text: string; redacted: boolean; turn: Turn; partIndex: number }) {
  return (
    <details className="group rounded-md border border-zinc-200 bg-zinc-50 text-sm" data-testid="thinking">
      <summary className={SUMMARY}>
        <span aria-hidden className={CHEVRON}>
          ▸
        </span>
        <span className="font-medium text-zinc-700">Thinking</span>
        <span className="text-xs text-zinc-500">{redacted ? "(redacted)" : `(${formatInteger(text.length)} characters)`}</span>
      </summary>
      <div className="border-t border-zinc-200 px-3 py-2">
        <PartText text={text} source={turn} partIndex={partIndex} field="text" />
      </div>
    </details>
  );
}

function ErrorLabel() {
  return <span className="rounded border border-red-300 bg-red-100 px-1 py-px text-[11px] leading-4 font-medium text-red-800">error</span>;
}

function ToolCallCard({ part, partIndex, turn, tools }: { part: ToolCallPart; partIndex: number; turn: Turn; tools: ToolIndex }) {
  const result = tools.results.get(part.id);
  const failed = result?.part.isError === true;
  const subagents = tools.subagents.get(part.id) ?? [];
  const hint = argumentHint(part.arguments);
  return (
    <div className={`min-w-0 rounded-md border text-sm ${failed ? "border-red-300 bg-red-50/40" : "border-zinc-200 bg-zinc-50"}`} data-testid="tool-call">
      <details className="group">
        <summary className={SUMMARY}>
          <span aria-hidden className={CHEVRON}>
            ▸
          </span>
          <span className="text-xs text-zinc-500">Tool</span>
          <span className="min-w-0 font-mono font-medium break-all text-zinc-900" data-testid="tool-name">
            {part.name}
          </span>
          {hint && <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-500">{hint}</span>}
          <span className="ml-auto flex items-center gap-2 text-xs text-zinc-500">
            {failed ? <ErrorLabel /> : result ? null : <span>{tools.partial ? "result not loaded" : "no result"}</span>}
          </span>
        </summary>
        <div className="space-y-3 border-t border-zinc-200 px-3 py-2">
          <p className="text-xs text-zinc-500">
            Call id <span className="font-mono break-all text-zinc-700">{part.id}</span>
          </p>
          <div>
            <p className="mb-1 text-xs font-medium tracking-wide text-zinc-500 uppercase">Arguments</p>
            <div data-testid="tool-arguments">
              <PartText text={formatJson(part.arguments)} source={turn} partIndex={partIndex} field="arguments" />
            </div>
          </div>
          <div data-testid="tool-result" className={failed ? "rounded border border-red-200 bg-red-50 p-2" : undefined}>
            <div className="mb-1 flex flex-wrap items-center gap-2 text-xs font-medium tracking-wide text-zinc-500 uppercase">
              Result
              {failed && <ErrorLabel />}
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
              <p className="text-xs text-zinc-500 italic">{tools.partial ? "No result in the turns loaded around this one" : "No result recorded"}</p>
            )}
          </div>
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

/** A result's diff (an edit's change), below what the model was told, coloured as git colours it. */
function ResultDiff({ part, source, partIndex }: { part: ToolResultPart; source: { threadId: string; index: number }; partIndex: number }) {
  const diff = resultDiff(part);
  if (diff === null) return null;
  return (
    <div className="mt-2" data-testid="tool-diff">
      <p className="mb-1 text-xs font-medium tracking-wide text-zinc-500 uppercase">Diff</p>
      <PartText text={diff} source={source} partIndex={partIndex} field="diff" />
    </div>
  );
}

/** The collapsed card of a tool result shown outside its call's card: red when the tool failed. */
function ResultCard({ failed, testId, title, note, children }: { failed: boolean; testId: string; title: ReactNode; note?: ReactNode; children: ReactNode }) {
  return (
    <details className={`group rounded-md border text-sm ${failed ? "border-red-300 bg-red-50/40" : "border-zinc-200 bg-zinc-50"}`} data-testid={testId}>
      <summary className={SUMMARY}>
        <span aria-hidden className={CHEVRON}>
          ▸
        </span>
        <span className="text-zinc-700">Result of {title}</span>
        {failed && <ErrorLabel />}
        {note}
      </summary>
      {children}
    </details>
  );
}

const toolNameLabel = (name: string) => <span className="font-mono font-medium break-all text-zinc-900">{name}</span>;

/** A result whose call is in another turn: a compact card pointing at the call (which shows it). */
function ResultOfCall({ part, call }: { part: ToolResultPart; call: TurnRef & { part: ToolCallPart } }) {
  const size = toolResultText(part.content).length;
  return (
    <ResultCard
      failed={part.isError === true}
      testId="tool-result-ref"
      title={toolNameLabel(call.part.name)}
      note={<span className="text-xs text-zinc-500">({formatInteger(size)} characters)</span>}
    >
      <p className="border-t border-zinc-200 px-3 py-2 text-xs text-zinc-600">
        Shown with its call in{" "}
        <a href={`#${turnAnchor(call.turnId)}`} className="text-indigo-700 underline">
          turn #{call.number}
        </a>
        .
      </p>
    </ResultCard>
  );
}

/**
 * A result whose call is not on this page, shown in full here: cut from the transcript, or (on a
 * long thread's page, `partial`) in a turn not loaded.
 */
function OrphanResult({ part, partIndex, turn, partial }: { part: ToolResultPart; partIndex: number; turn: Turn; partial: boolean }) {
  const failed = part.isError === true;
  const name = typeof part.name === "string" ? part.name : typeof part.toolName === "string" ? part.toolName : null;
  return (
    <ResultCard failed={failed} testId="tool-result-orphan" title={name ? toolNameLabel(name) : partial ? "a call in an earlier turn" : "a call not in this thread"}>
      <div className="space-y-2 border-t border-zinc-200 px-3 py-2">
        <p className="text-xs text-zinc-500">
          Call id <span className="font-mono break-all text-zinc-700">{part.toolCallId}</span>
        </p>
        <div className={failed ? "text-red-900" : undefined}>
          <PartText text={toolResultText(part.content)} source={turn} partIndex={partIndex} field="content" />
          <ResultDiff part={part} source={turn} partIndex={partIndex} />
        </div>
      </div>
    </ResultCard>
  );
}

/** An image as its label only: the page never fetches what a conversation points at. */
function ImagePlaceholder({ part }: { part: Extract<TurnPart, { type: "image" }> }) {
  const label = part.alt || part.mediaType || part.path || "no description";
  const details = [part.mediaType, part.path].filter((v): v is string => typeof v === "string" && v !== "" && v !== label);
  return (
    <span
      className="inline-block max-w-full rounded border border-dashed border-zinc-300 bg-zinc-50 px-2 py-1 font-mono text-xs break-all text-zinc-700"
      title={details.length > 0 ? details.join(" · ") : undefined}
      data-testid="image-placeholder"
    >
      image: {label}
    </span>
  );
}

/** The summary a compaction left, collapsed below the marker. */
function CompactionSummary({ turn }: { turn: Turn }) {
  const preview = turn.content.length > PREVIEW_CHARS ? contentPreview(turn.content, PREVIEW_CHARS) : null;
  return (
    <details className="group rounded-md border border-violet-200 bg-white text-sm" data-testid="compaction-summary">
      <summary className={SUMMARY}>
        <span aria-hidden className={CHEVRON}>
          ▸
        </span>
        <span className="font-medium text-zinc-700">Summary of the conversation before</span>
        <span className="text-xs text-zinc-500">({formatInteger(turn.content.length)} characters)</span>
      </summary>
      <div className="border-t border-violet-100 px-3 py-2">
        <Collapsible collapsedByDefault={preview !== null} summary={`${formatCount(turn.content.length)} characters`} fullUrl={preview === null ? undefined : turnUrl(turn)}>
          <MarkdownContent text={preview ?? turn.content} />
        </Collapsible>
      </div>
    </details>
  );
}
