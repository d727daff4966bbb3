import { attributionBesideRole, roleLabel } from "@/lib/domain/attribution";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { contentPreview, formatCount, formatDateTime } from "@/lib/format";
import { Collapsible } from "./collapsible";
import { MarkdownContent } from "./markdown";
import { TokenCount } from "@/components/ui/token-count";

const LONG_CHARS = 2_000;
const LONG_LINES = 30;
/**
 * Past this, the page carries only a preview of a turn, loaded in full when expanded: a 15 MB
 * turn rendered as Markdown took 26 s and sent 31 MB.
 */
const PREVIEW_CHARS = 8_192;

const ROLE_STYLE: Record<Turn["role"], string> = {
  user: "border-sky-200 bg-sky-50 text-sky-800",
  assistant: "border-emerald-200 bg-emerald-50 text-emerald-800",
  system: "border-zinc-300 bg-zinc-100 text-zinc-700",
  tool: "border-amber-200 bg-amber-50 text-amber-800",
};

/** One turn: role, attribution, time, referenced files and images (names only), content. */
export function TurnView({ turn, number, threadLabel }: { turn: Turn; number: number; threadLabel?: string }) {
  const lines = turn.content.split("\n").length;
  const long = turn.content.length > LONG_CHARS || lines > LONG_LINES;
  const preview = turn.content.length > PREVIEW_CHARS ? contentPreview(turn.content, PREVIEW_CHARS) : null;
  const attribution = attributionBesideRole(turn);
  // By turn id, not index: the chain page shows the turns of several threads, each from index 0.
  const anchor = `turn-${turn.id}`;
  return (
    <article id={anchor} aria-label={`Turn ${number}`} className="rounded-lg border border-zinc-200 bg-white">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-100 px-4 py-2 text-sm">
        <a href={`#${anchor}`} className="font-mono text-xs text-zinc-500 hover:underline">
          #{number}
        </a>
        <span className={`rounded border px-1.5 py-0.5 text-xs font-medium ${ROLE_STYLE[turn.role]}`}>{roleLabel(turn.role)}</span>
        {attribution && (
          <span className="min-w-0 font-medium break-words text-zinc-800" data-testid="attribution">
            {attribution}
          </span>
        )}
        {threadLabel && <span className="min-w-0 text-xs break-words text-zinc-500">in {threadLabel}</span>}
        <span className="ml-auto flex items-center gap-3 text-xs text-zinc-500">
          <TokenCount tokens={turn.tokens} estimate={turn.tokenEstimate} />
          <time dateTime={turn.timestamp}>{formatDateTime(turn.timestamp)}</time>
        </span>
      </header>
      {(turn.files.length > 0 || turn.images.length > 0) && (
        <div className="flex flex-wrap gap-2 border-b border-zinc-100 px-4 py-2 text-xs">
          {turn.files.map((path) => (
            <span key={`f:${path}`} className="min-w-0 rounded bg-zinc-100 px-1.5 py-0.5 font-mono break-all text-zinc-700" title="File referenced by this turn">
              <span className="text-zinc-500">file</span> {path}
            </span>
          ))}
          {turn.images.map((path) => (
            <span key={`i:${path}`} className="min-w-0 rounded bg-zinc-100 px-1.5 py-0.5 font-mono break-all text-zinc-700" title="Image referenced by this turn">
              <span className="text-zinc-500">image</span> {path}
            </span>
          ))}
        </div>
      )}
      <div className="px-4 py-3">
        {turn.parts && turn.parts.some((p) => p.type !== "text") && <TurnParts parts={turn.parts} />}
        <Collapsible
          collapsedByDefault={long}
          summary={`${lines} lines, ${formatCount(turn.content.length)} characters`}
          // The UI shows expired threads, so it asks for their turns too.
          fullUrl={preview === null ? undefined : `/api/threads/${turn.threadId}/turns/${turn.index}?includeExpired=1`}
        >
          <MarkdownContent text={preview ?? turn.content} />
        </Collapsible>
      </div>
    </article>
  );
}

/** Structured parts other than text: thinking and tool calls/results, collapsed by default. */
function TurnParts({ parts }: { parts: TurnPart[] }) {
  return (
    <div className="mb-3 space-y-2">
      {parts.map((part, i) => {
        if (part.type === "text") return null;
        if (part.type === "thinking") {
          return (
            <details key={i} className="rounded border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm">
              <summary className="cursor-pointer text-zinc-600">Thinking</summary>
              <p className="mt-2 whitespace-pre-wrap text-zinc-700">{part.text}</p>
            </details>
          );
        }
        if (part.type === "tool_call") {
          return (
            <details key={i} className="rounded border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm">
              <summary className="cursor-pointer">
                Tool call <span className="font-mono break-all">{part.name}</span> <span className="text-xs break-all text-zinc-500">{part.id}</span>
              </summary>
              <pre className="mt-2 overflow-x-auto text-xs">{JSON.stringify(part.arguments ?? null, null, 2)}</pre>
            </details>
          );
        }
        if (part.type === "tool_result") {
          return (
            <details key={i} className={`rounded border px-3 py-2 text-sm ${part.isError ? "border-red-200 bg-red-50" : "border-zinc-200 bg-zinc-50"}`}>
              <summary className="cursor-pointer">
                Tool result <span className="text-xs break-all text-zinc-500">{part.toolCallId}</span>
                {part.isError ? <span className="ml-2 text-red-700">error</span> : null}
              </summary>
              <pre className="mt-2 overflow-x-auto whitespace-pre-wrap text-xs">
                {typeof part.content === "string" ? part.content : JSON.stringify(part.content, null, 2)}
              </pre>
            </details>
          );
        }
        return (
          <span key={i} className="inline-block max-w-full rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs break-all">
            [image{part.alt ? `: ${part.alt}` : ""}{part.path ? ` — ${part.path}` : ""}]
          </span>
        );
      })}
    </div>
  );
}
