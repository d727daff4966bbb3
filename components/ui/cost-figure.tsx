import { formatUsd } from "@/lib/domain/cost";
import type { CostTotals, ReportedCost } from "@/lib/domain/types";
import { formatInteger } from "@/lib/format";

/**
 * What a thread's responses cost, beside its tokens: "$0.0123", the split on hover; responses of
 * models with no known price are named ("unpriced: aide-gpt-5"), never counted as $0. Nothing for
 * a thread without priced or unpriced responses.
 */
export function CostFigure({ cost }: { cost: CostTotals | undefined }) {
  if (!cost || (cost.totalUsd === 0 && cost.unpricedResponses === 0 && !cost.reported)) return null;
  const split = `input ${formatUsd(cost.inputUsd)}, cache read ${formatUsd(cost.cacheReadUsd)}, cache write ${formatUsd(cost.cacheWriteUsd)}, output ${formatUsd(cost.outputUsd)}`;
  const unpriced = cost.unpricedResponses > 0 ? `unpriced: ${cost.unpricedModels.join(", ")}` : null;
  const priced = cost.totalUsd > 0 || cost.unpricedResponses === 0;
  return (
    <span
      className="min-w-0 break-words"
      data-testid="cost"
      title={`Each response priced at list prices when it ran: ${split}${unpriced ? `; ${cost.unpricedResponses} ${cost.unpricedResponses === 1 ? "response" : "responses"} of models with no known price not included` : ""}`}
    >
      {priced && <span data-testid="cost-total">{formatUsd(cost.totalUsd)}</span>}
      {priced && unpriced && " · "}
      {unpriced && (
        <span className="text-amber-800" data-testid="cost-unpriced">
          {unpriced}
        </span>
      )}
      {cost.reported && <ReportedFigure reported={cost.reported} />}
    </span>
  );
}

/**
 * The agent's own figure beside ours ("agent says $0.0119"): OpenCode, Pi and Aider record what
 * they think a response cost, by their prices (and $0 under a subscription); it is never added to ours.
 */
export function ReportedFigure({ reported }: { reported: ReportedCost }) {
  const over = reported.responses === 1 ? "1 response" : `${formatInteger(reported.responses)} responses`;
  return (
    <span
      className="text-zinc-500"
      data-testid="cost-reported"
      title={`What the agent itself recorded as the cost of ${over}, by its own prices (a subscription records $0); Threadline's figure is computed from the tokens at list prices`}
    >
      {" "}
      (agent says {formatUsd(reported.usd)})
    </span>
  );
}
