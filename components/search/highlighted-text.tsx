import { highlightSegments } from "@/lib/domain/threads/snippet";

/**
 * Untrusted text with some runs marked: React elements built from offsets (never HTML), so a
 * snippet holding markup shows it as text.
 */
export function HighlightedText({ text, highlights }: { text: string; highlights: readonly (readonly [number, number])[] }) {
  return (
    <>
      {highlightSegments(text, highlights).map((segment, i) =>
        segment.marked ? (
          <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-zinc-950">
            {segment.text}
          </mark>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}
