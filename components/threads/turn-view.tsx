import { attributionBesideRole, roleLabel } from "@/lib/domain/display/attribution";
import { chatMark } from "@/lib/domain/threads/chat";
import { describeTurn } from "@/lib/domain/display/transcript-display";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { contentPreview, formatCount, formatDateTime, plural } from "@/lib/format";
import { Collapsible } from "./collapsible";
import { MarkdownContent } from "./markdown";
import { turnUrl } from "./part-text";
import { buildToolIndex, turnAnchor, type ToolIndex } from "./tool-index";
import { DisplayBlocks, Folded } from "./transcript-blocks";
import { CompactionMarker, hasStructuredParts, LONG_CHARS, LONG_LINES, PREVIEW_CHARS, TurnParts } from "./turn-parts";
import { CompactionRunLine, TurnUsageLine } from "./usage";
import { TurnMenu } from "./turn-menu";
import { TokenCount } from "@/components/ui/token-count";
import { SecretMaskScope } from "@/components/secrets/secret-mask";

const ROLE_STYLE: Record<Turn["role"], string> = {
  user: "border-sky-200 bg-sky-50 text-sky-800",
  assistant: "border-emerald-200 bg-emerald-50 text-emerald-800",
  system: "border-zinc-300 bg-zinc-100 text-zinc-700",
  tool: "border-amber-200 bg-amber-50 text-amber-800",
};

/**
 * One turn: role, attribution, time, referenced files and images (names only), then its parts
 * (tool calls, results, thinking, compaction; see TurnParts) or, for plain turns, its content as
 * its agent shows it (commands as chips, terminal output, injected context and meta entries
 * folded: describeTurn), and the usage of a model response. `tools` pairs calls with results across the page's turns; without
 * it only this turn's own are paired.
 */
export function TurnView({
  turn,
  number,
  threadLabel,
  tools,
  menu = false,
}: {
  turn: Turn;
  number: number;
  threadLabel?: string;
  tools?: ToolIndex;
  menu?: boolean;
}) {
  const structured = hasStructuredParts(turn);
  const compaction = turn.parts?.find((p): p is Extract<TurnPart, { type: "compaction" }> => p.type === "compaction");
  const attribution = attributionBesideRole(turn);
  const mark = chatMark(turn);
  // By turn id, not index: the chain page shows the turns of several threads, each from index 0.
  const anchor = turnAnchor(turn.id);
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
          {menu && <TurnMenu threadId={turn.threadId} index={turn.index} />}
          <TokenCount tokens={turn.tokens} estimate={turn.tokenEstimate} estimated={turn.tokensEstimated} />
          <time dateTime={turn.timestamp}>{formatDateTime(turn.timestamp)}</time>
        </span>
      </header>
      {(turn.files.length > 0 || turn.images.length > 0) && (
        <div className="flex flex-wrap gap-2 border-b border-zinc-100 px-4 py-2 text-xs">
          {turn.files.map((path) => (
            <span
              key={`f:${path}`}
              className="min-w-0 rounded bg-zinc-100 px-1.5 py-0.5 font-mono break-all text-zinc-700"
              title="File referenced by this turn"
            >
              <span className="text-zinc-500">file</span> {path}
            </span>
          ))}
          {turn.images.map((path) => (
            <span
              key={`i:${path}`}
              className="min-w-0 rounded bg-zinc-100 px-1.5 py-0.5 font-mono break-all text-zinc-700"
              title="Image referenced by this turn"
            >
              <span className="text-zinc-500">image</span> {path}
            </span>
          ))}
        </div>
      )}
      {compaction && <CompactionMarker part={compaction} />}
      {mark && (
        <p className="border-b border-amber-200 bg-amber-50 px-4 py-1.5 text-xs break-words text-amber-900" data-testid="chat-mark">
          <span className="font-medium">{mark.kind === "unanswered" ? "Unanswered" : "Incomplete reply"}</span>
          {mark.reason && `: ${mark.reason}`}
        </p>
      )}
      <div className="min-w-0 px-4 py-3">
        {/* Masks in the turn's text reveal this turn's secrets (for those allowed). */}
        <SecretMaskScope threadId={turn.threadId} turnId={turn.id}>
          {structured ? <TurnParts turn={turn} tools={tools ?? buildToolIndex([{ turn, number }])} /> : <DisplayedContent turn={turn} />}
        </SecretMaskScope>
      </div>
      {turn.usage && <TurnUsageLine usage={turn.usage} cost={turn.cost} rounded={turn.modelMetadata?.usageRounded === true} />}
      {turn.compactionRun && <CompactionRunLine run={turn.compactionRun} />}
    </article>
  );
}

/** A turn without structured parts: its blocks (describeTurn) or its Markdown, folded when it is meta or injected context. */
function DisplayedContent({ turn }: { turn: Turn }) {
  const display = describeTurn(turn);
  const body = display.blocks ? <DisplayBlocks blocks={display.blocks} turn={turn} /> : <PlainContent turn={turn} />;
  if (display.folded === null) return body;
  return (
    <Folded label={display.folded} size={turn.content.length} testId="folded-turn">
      {body}
    </Folded>
  );
}

/** A turn without structured parts (or with text parts only): its content as Markdown. */
function PlainContent({ turn }: { turn: Turn }) {
  const lines = turn.content.split("\n").length;
  const long = turn.content.length > LONG_CHARS || lines > LONG_LINES;
  const preview = turn.content.length > PREVIEW_CHARS ? contentPreview(turn.content, PREVIEW_CHARS) : null;
  return (
    <Collapsible
      collapsedByDefault={long}
      summary={`${plural(lines, "line")}, ${formatCount(turn.content.length)} characters`}
      fullUrl={preview === null ? undefined : turnUrl(turn)}
    >
      <MarkdownContent text={preview ?? turn.content} />
    </Collapsible>
  );
}
