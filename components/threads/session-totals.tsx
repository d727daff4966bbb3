import { formatUsd } from "@/lib/domain/usage/cost";
import type { PricedModelTotal, SessionTotals } from "@/lib/domain/usage/session-totals";
import { formatInteger, plural, usageSummary } from "@/lib/format";

const SOURCE_LABEL: Record<string, string> = {
  "copilot session.shutdown": "Copilot CLI's session.shutdown reports",
  "goose session totals": "Goose's session totals, beyond the replies' own usage",
};

/**
 * Token totals a source reports only per session and model (Copilot CLI), apart from the
 * per-response usage: they are not responses and are never added to it. Each model's totals are
 * priced as one request at list prices, which Copilot itself does not bill (it counts premium requests).
 */
export function SessionTotalsPanel({ totals, priced }: { totals: SessionTotals; priced: PricedModelTotal[] }) {
  const source = SOURCE_LABEL[totals.source] ?? totals.source;
  return (
    <section
      aria-label="Session totals"
      className="mb-4 space-y-1 rounded-lg border border-sky-200 bg-sky-50/40 px-4 py-2 text-sm"
      data-testid="session-totals"
    >
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium text-zinc-700">Session totals</span>
        <span
          className="text-xs text-zinc-500"
          title="Reported for the whole session, per model; the source gives no per-response input counts"
        >
          as reported by {source} ({plural(totals.reports, "report")}, summed), not per response
        </span>
        {totals.premiumRequests !== undefined && (
          <span className="text-xs text-zinc-600">{plural(totals.premiumRequests, "premium request")}</span>
        )}
        {totals.codeChanges && (totals.codeChanges.linesAdded > 0 || totals.codeChanges.linesRemoved > 0) && (
          <span className="text-xs text-zinc-600">
            +{formatInteger(totals.codeChanges.linesAdded)} −{formatInteger(totals.codeChanges.linesRemoved)} lines in{" "}
            {plural(totals.codeChanges.filesModified.length, "file")}
          </span>
        )}
      </p>
      <ul className="space-y-0.5 text-xs text-zinc-700">
        {priced.map(({ model, totals: t, cost }) => (
          <li key={model} className="flex flex-wrap items-center gap-x-2" data-testid="session-totals-model">
            <span className="font-mono">{model}</span>
            <span className="text-zinc-500">{plural(t.requests, "request")}</span>
            <span className="min-w-0 break-words" data-testid="session-totals-figures">
              {usageSummary(t)}
            </span>
            {cost.priced ? (
              <span
                data-testid="session-totals-cost"
                title={`At list prices when the last report was written: input ${formatUsd(cost.inputUsd)}, cache read ${formatUsd(cost.cacheReadUsd)}, cache write ${formatUsd(cost.cacheWriteUsd)}, output ${formatUsd(cost.outputUsd)}`}
              >
                {formatUsd(cost.totalUsd)} at list prices
              </span>
            ) : (
              <span className="text-amber-800">no known price</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
