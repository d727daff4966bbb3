import { formatUsd } from "@/lib/domain/usage/cost";
import type { ReportedCost } from "@/lib/domain/types";
import { formatInteger } from "@/lib/format";

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
