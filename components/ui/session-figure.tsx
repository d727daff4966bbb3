import { ReportedFigure } from "@/components/ui/cost-figure";
import { costText, coverageText, splitLines, tokenFigure, tokenText } from "@/lib/domain/usage/thread-figures";
import type { SessionFigures } from "@/lib/domain/types";

/**
 * A thread's one figure (lib/domain/usage/thread-figures.ts), the same in the thread list, the thread
 * header and /usage: "458k tokens · $1.24 (agent says $1.10) incl. 1 sub-agent and 1 compaction
 * run", the split behind the last words (a disclosure: keyboard and screen readers open it too).
 * Nothing for a thread whose session has no model responses, unless `none` says what to show.
 */
export function SessionFigure({ figures, none }: Readonly<{ figures: SessionFigures | undefined; none?: string }>) {
  if (!figures || figures.total.responses === 0) {
    return none ? (
      <span
        className="text-zinc-500"
        data-testid="figure-none"
        title="No model response ran in this thread or its sub-agents: a fork's or a branched session's copies of another session's responses count where they ran"
      >
        {none}
      </span>
    ) : null;
  }
  return (
    <div className="inline-flex max-w-full min-w-0 flex-wrap items-baseline gap-x-1.5" data-testid="session-figure">
      <FigureTokens figures={figures} />
      <span aria-hidden="true">·</span>
      <FigureCost figures={figures} />
      {figures.reported && <ReportedFigure reported={figures.reported} />}
      <FigureCovers figures={figures} />
    </div>
  );
}

/** "458k tokens", "~" where some responses' usage was estimated; the exact count and what it counts on hover. */
export function FigureTokens({ figures }: Readonly<{ figures: SessionFigures }>) {
  const { count, approximate } = tokenFigure(figures.total);
  const estimated = figures.total.estimatedResponses;
  const how = approximate
    ? `an estimate: ${estimated} of ${figures.total.responses} responses had no usage recorded by their source and were counted with our tokenizer (a lower bound)`
    : "as the responses' sources reported them";
  return (
    <span
      className="whitespace-nowrap"
      data-testid="figure-tokens"
      title={`${count.toLocaleString("en-US")} tokens the model responses processed (input, cache reads, cache writes and output), ${how}`}
    >
      {tokenText(figures.total)}
    </span>
  );
}

/** "$1.24": each response priced alone at list prices when it ran; unpriced responses named, never counted as $0. */
export function FigureCost({ figures }: Readonly<{ figures: SessionFigures }>) {
  const unpriced =
    figures.total.unpricedResponses > 0
      ? `; ${figures.total.unpricedResponses} responses of models with no known price not included (${figures.unpricedModels.join(", ")})`
      : "";
  return (
    <span
      className={`whitespace-nowrap ${figures.total.unpricedResponses > 0 ? "text-amber-800" : ""}`}
      data-testid="figure-cost"
      title={`Each response priced alone at list prices when it ran${unpriced}`}
    >
      {costText(figures.total)}
    </span>
  );
}

/** What the figure covers beyond the thread ("incl. 2 sub-agents"), opening to the split; nothing for the thread alone. */
export function FigureCovers({ figures }: Readonly<{ figures: SessionFigures }>) {
  const covers = coverageText(figures);
  if (!covers) return null;
  return (
    <details className="group min-w-0 text-zinc-600" data-testid="figure-details">
      <summary
        className="cursor-pointer whitespace-nowrap underline decoration-dotted underline-offset-2"
        data-testid="figure-covers"
        title="The split: this thread, its sub-agents, its compaction runs"
      >
        {covers}
      </summary>
      <ul
        className="mt-1 space-y-0.5 rounded border border-zinc-200 bg-white px-2 py-1 text-left whitespace-normal text-zinc-700"
        data-testid="figure-split"
      >
        {splitLines(figures).map((line) => (
          <li key={line.label} className="flex flex-wrap gap-x-2" data-testid="figure-split-line">
            <span className="text-zinc-500">{line.label}</span>
            <span>{line.tokens}</span>
            <span>{line.cost}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
