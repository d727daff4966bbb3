import { contentPreview } from "@/lib/format";
import { AnsiText } from "./ansi";
import { DiffText } from "./diff-text";
import { LongText } from "./long-text";
import { PART_PREVIEW_CHARS, turnUrl, type PartField, type TextRef } from "./part-text";

const PRE = "max-w-full overflow-x-auto rounded bg-white p-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap text-zinc-800";
export const CHEVRON = "inline-block shrink-0 text-zinc-400 transition-transform group-open:rotate-90";
export const SUMMARY = "flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2 [&::-webkit-details-marker]:hidden";

/**
 * Untrusted text as a terminal shows it (escape codes styled, never raw), or with `diff` as a
 * coloured diff: whole when short, else its start and a toggle that loads the rest of what
 * `textRef` points at.
 */
export function PlainText({
  text,
  source,
  textRef,
  className,
  diff = false,
}: {
  text: string;
  source: { threadId: string; index: number };
  textRef: TextRef;
  className: string;
  diff?: boolean;
}) {
  if (text.length <= PART_PREVIEW_CHARS) {
    return <pre className={className}>{diff ? <DiffText text={text} /> : <AnsiText text={text} />}</pre>;
  }
  return (
    <LongText
      preview={contentPreview(text, PART_PREVIEW_CHARS)}
      total={text.length}
      fullUrl={turnUrl(source)}
      textRef={textRef}
      className={className}
      diff={diff}
    />
  );
}

/** Plain text of a part's field (or of a slot of a tool call's view): whole when short, else its start and a toggle that loads the rest. */
export function PartText({
  text,
  source,
  partIndex,
  field,
  slot,
  diff,
}: {
  text: string;
  source: { threadId: string; index: number };
  partIndex: number;
  field: PartField;
  slot?: string;
  diff?: boolean;
}) {
  if (text === "") return <p className="text-xs text-zinc-500 italic">(empty)</p>;
  return (
    <PlainText
      text={text}
      source={source}
      textRef={slot === undefined ? { partIndex, field } : { partIndex, field, slot }}
      className={PRE}
      diff={diff}
    />
  );
}
