import { formatUsd } from "@/lib/domain/cost";
import type { CostTotals } from "@/lib/domain/types";

/**
 * What a thread's responses cost, beside its tokens: "$0.0123", the split on hover; responses of
 * models with no known price are named ("unpriced: aide-gpt-5"), never counted as $0. Nothing for
 * a thread without priced or unpriced responses.
 */
export function CostFigure({ cost }: { cost: CostTotals | undefined }) {
  if (!cost || (cost.totalUsd === 0 && cost.unpricedResponses === 0)) return null;
  const split = `input ${formatUsd(cost.inputUsd)}, cache read ${formatUsd(cost.cacheReadUsd)}, cache write ${formatUsd(cost.cacheWriteUsd)}, output ${formatUsd(cost.outputUsd)}`;
  const unpriced = cost.unpricedResponses > 0 ? `unpriced: ${cost.unpricedModels.join(", ")}` : null;
  const priced = cost.totalUsd > 0 || cost.unpricedResponses === 0;
  return (
    <span className="min-w-0 break-words" data-testid="cost" title={`Each response priced at list prices when it ran: ${split}${unpriced ? `; ${cost.unpricedResponses} ${cost.unpricedResponses === 1 ? "response" : "responses"} of models with no known price not included` : ""}`}>
      {priced && <span data-testid="cost-total">{formatUsd(cost.totalUsd)}</span>}
      {priced && unpriced && " · "}
      {unpriced && (
        <span className="text-amber-800" data-testid="cost-unpriced">
          {unpriced}
        </span>
      )}
    </span>
  );
}
