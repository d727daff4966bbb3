import type { ReactNode } from "react";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { compactionLabel, contentPreview, formatCount, formatInteger, plural, toolResultText } from "@/lib/format";
import { Collapsible } from "./collapsible";
import { MarkdownContent } from "./markdown";
import { turnUrl } from "./part-text";
import { CHEVRON, PartText, SUMMARY } from "./plain-text";
import { ErrorLabel, ResultDiff, ToolCallCard } from "./tool-call-card";
import { turnAnchor, type ToolCallPart, type ToolIndex, type ToolResultPart, type TurnRef } from "./tool-index";

/** Past these, Markdown starts collapsed to a fixed height. */
export const LONG_CHARS = 2_000;
export const LONG_LINES = 30;
/**
 * Past this, the page carries only a preview of a turn's Markdown, loaded in full when expanded: a
 * 15 MB turn rendered as Markdown took 26 s and sent 31 MB.
 */
export const PREVIEW_CHARS = 8_192;

export { CHEVRON, PlainText, SUMMARY } from "./plain-text";

/** Whether a turn is shown by its parts: it has some besides text (text-only turns show their content). */
export function hasStructuredParts(turn: Turn): boolean {
  return turn.parts?.some((p) => p.type !== "text") ?? false;
}

/** A compaction boundary, across the whole turn: "Compacted (auto) · 155,000 → 12,000 tokens". */
export function CompactionMarker({ part }: { part: Extract<TurnPart, { type: "compaction" }> }) {
  return (
    <div
      role="note"
      aria-label="Compaction boundary"
      data-testid="compaction"
      className="flex items-center gap-3 border-b border-violet-200 bg-violet-50 px-4 py-2 text-sm font-medium text-violet-900"
    >
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
      return call ? (
        <ResultOfCall part={part} call={call} />
      ) : (
        <OrphanResult part={part} partIndex={partIndex} turn={turn} partial={tools.partial} />
      );
    }
    case "image":
      return <ImagePlaceholder part={part} />;
    case "compaction":
      return null; // drawn across the turn, above its body
    default:
      return (
        <span className="inline-block rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs break-all text-zinc-600">
          [{String((part as { type: unknown }).type)} part]
        </span>
      );
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

/** The collapsed card of a tool result shown outside its call's card: red when the tool failed. */
function ResultCard({
  failed,
  testId,
  title,
  note,
  children,
}: {
  failed: boolean;
  testId: string;
  title: ReactNode;
  note?: ReactNode;
  children: ReactNode;
}) {
  return (
    <details
      className={`group rounded-md border text-sm ${failed ? "border-red-300 bg-red-50/40" : "border-zinc-200 bg-zinc-50"}`}
      data-testid={testId}
    >
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
    <ResultCard
      failed={failed}
      testId="tool-result-orphan"
      title={name ? toolNameLabel(name) : partial ? "a call in an earlier turn" : "a call not in this thread"}
    >
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
        <Collapsible
          collapsedByDefault={preview !== null}
          summary={`${formatCount(turn.content.length)} characters`}
          fullUrl={preview === null ? undefined : turnUrl(turn)}
        >
          <MarkdownContent text={preview ?? turn.content} />
        </Collapsible>
      </div>
    </details>
  );
}
