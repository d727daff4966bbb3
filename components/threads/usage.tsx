import type { ThreadUsage, TurnUsage } from "@/lib/domain/types";
import { plural, usageSummary } from "@/lib/format";

const SOURCE_TITLE: Record<ThreadUsage["source"], string> = {
  reported: "Reported by the source: the token usage the transcript itself recorded for the model response",
  estimated:
    "Estimated by Threadline's tokenizer: the source recorded no usage, so input counts the thread's earlier turns since the last compaction (a lower bound) and output this turn",
  mixed: "Mixed: some responses' usage was reported by the source, the rest estimated by Threadline's tokenizer",
};

const SOURCE_STYLE: Record<ThreadUsage["source"], string> = {
  reported: "border-emerald-200 bg-emerald-50 text-emerald-800",
  estimated: "border-amber-200 bg-amber-50 text-amber-800",
  mixed: "border-zinc-300 bg-zinc-50 text-zinc-700",
};

/** "reported" / "estimated" / "mixed", explained on hover. */
export function UsageSource({ source }: { source: ThreadUsage["source"] }) {
  return (
    <span title={SOURCE_TITLE[source]} data-testid="usage-source" className={`rounded border px-1 py-px text-[11px] leading-4 font-medium ${SOURCE_STYLE[source]}`}>
      {source}
    </span>
  );
}

/** A model response's usage: "in 3 · cache read 17,842 · out 9", zero fields left out. */
export function TurnUsageLine({ usage }: { usage: TurnUsage }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 border-t border-zinc-100 px-4 py-1.5 text-xs text-zinc-600" data-testid="turn-usage">
      <span className="text-zinc-500">Usage</span>
      <span className="min-w-0 break-words" data-testid="usage-figures">
        {usageSummary(usage)}
      </span>
      <UsageSource source={usage.source} />
    </p>
  );
}

/** The thread's totals over its responses, each counted once. */
export function ThreadUsageTotals({ usage, responses }: { usage: ThreadUsage; responses: number }) {
  return (
    <section aria-label="Usage totals" className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-zinc-200 bg-white px-4 py-2 text-sm" data-testid="thread-usage">
      <span className="font-medium text-zinc-700">Usage</span>
      <span className="text-xs text-zinc-500">{plural(responses, "response")}</span>
      <span className="min-w-0 break-words" data-testid="usage-figures">
        {usageSummary(usage)}
      </span>
      <UsageSource source={usage.source} />
    </section>
  );
}
