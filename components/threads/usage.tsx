import { ReportedFigure } from "@/components/ui/cost-figure";
import { formatUsd } from "@/lib/domain/usage/cost";
import type {
  AgentReport,
  CompactionRunUsage,
  ResponseCost,
  SessionUsage,
  SubagentUsage,
  ThreadUsage,
  TurnUsage,
} from "@/lib/domain/types";
import { formatInteger, plural, usageFieldLabel, usageSummary } from "@/lib/format";

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
function UsageSource({ source }: { source: ThreadUsage["source"] }) {
  return (
    <span
      title={SOURCE_TITLE[source]}
      data-testid="usage-source"
      className={`rounded border px-1 py-px text-[11px] leading-4 font-medium ${SOURCE_STYLE[source]}`}
    >
      {source}
    </span>
  );
}

/**
 * A model response's usage: "in 3 · cache read 17,842 · out 9", zero fields left out; its price
 * where it was read with one, and the agent's own figure beside it where the agent recorded one;
 * `rounded` when the source only gave rounded figures (Aider's "3.2k sent").
 */
export function TurnUsageLine({ usage, cost, rounded = false }: { usage: TurnUsage; cost?: ResponseCost | null; rounded?: boolean }) {
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 border-t border-zinc-100 px-4 py-1.5 text-xs text-zinc-600"
      data-testid="turn-usage"
    >
      <span className="text-zinc-500">Usage</span>
      <span className="min-w-0 break-words" data-testid="usage-figures">
        {usageSummary(usage)}
      </span>
      {cost && (
        <span className="min-w-0 break-words" data-testid="turn-cost">
          {cost.priced ? formatUsd(cost.totalUsd) : <span className="text-amber-800">unpriced</span>}
          {cost.reportedUsd !== undefined && <ReportedFigure reported={{ usd: cost.reportedUsd, responses: 1 }} />}
        </span>
      )}
      <UsageSource source={usage.source} />
      {rounded && (
        <span
          title="The source wrote these figures rounded (3.2k): they are approximate"
          data-testid="usage-rounded"
          className="text-[11px] text-zinc-500"
        >
          rounded
        </span>
      )}
    </p>
  );
}

/**
 * The thread's token totals over its responses by kind, each counted once; with its sub-agents and
 * compaction runs beside them when it has any. What they cost is the header's one figure
 * (components/ui/session-figure.tsx), with its split: not repeated here.
 */
export function ThreadUsageTotals({ usage, responses, session }: { usage: ThreadUsage; responses: number; session: SessionUsage | null }) {
  const more = session && (session.subagentThreads > 0 || session.compactionRuns > 0) ? session : null;
  return (
    <section
      aria-label="Usage totals"
      className="mb-4 space-y-1 rounded-lg border border-zinc-200 bg-white px-4 py-2 text-sm"
      data-testid="thread-usage"
    >
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium text-zinc-700">{more ? "This thread" : "Usage"}</span>
        <span className="text-xs text-zinc-500">{plural(responses, "response")}</span>
        <span className="min-w-0 break-words" data-testid="usage-figures">
          {usageSummary(usage)}
        </span>
        <UsageSource source={usage.source} />
      </p>
      {more && (
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="session-usage">
          <span className="font-medium text-zinc-700">With {sessionParts(more)}</span>
          <span className="min-w-0 break-words" data-testid="session-usage-figures">
            {usageSummary(more)}
          </span>
          <UsageSource source={more.source} />
        </p>
      )}
      {more && more.subagents.length > 0 && <SubagentUsageList subagents={more.subagents} />}
    </section>
  );
}

/** "3 sub-agents and 1 compaction run". */
function sessionParts(session: SessionUsage): string {
  const parts = [
    session.subagentThreads > 0 ? plural(session.subagentThreads, "sub-agent") : null,
    session.compactionRuns > 0 ? plural(session.compactionRuns, "compaction run") : null,
  ];
  return parts.filter(Boolean).join(" and ");
}

/** Each sub-agent's recorded usage, and what its parent's tool result reports beside it (never added). */
function SubagentUsageList({ subagents }: { subagents: SubagentUsage[] }) {
  const flagged = subagents.filter((s) => s.differs.length > 0).length;
  return (
    <details className="text-xs text-zinc-600" data-testid="subagent-usage">
      <summary className="cursor-pointer text-zinc-500">
        Per sub-agent{flagged > 0 ? ` (${flagged} ${flagged === 1 ? "differs" : "differ"} from what its parent reports)` : ""}
      </summary>
      <ul className="mt-1 space-y-1">
        {subagents.map((s) => (
          <li key={s.threadId} className="rounded border border-zinc-100 px-2 py-1" data-testid="subagent-usage-row">
            <a href={`/threads/${s.threadId}`} className="font-medium text-indigo-700 hover:underline">
              {s.title ?? s.agentId ?? s.threadId}
            </a>
            <span className="block">Recorded: {usageSummary(s.usage)}</span>
            {s.reported && (
              <span className={`block ${s.differs.length > 0 ? "text-amber-800" : ""}`} data-testid="subagent-reported">
                Final request as the parent&apos;s tool result reports it: {reportSummary(s.reported)}
                {s.differs.length > 0 &&
                  s.lastResponse &&
                  ` (recorded: ${usageSummary(s.lastResponse)}; differs in ${s.differs.map(usageFieldLabel).join(", ")}; totals use the recorded figures)`}
              </span>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

function reportSummary(report: AgentReport): string {
  const counts = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, ...report };
  const extra = [
    report.totalTokens !== undefined ? `${formatInteger(report.totalTokens)} tokens in all` : null,
    report.toolUses !== undefined ? plural(report.toolUses, "tool use") : null,
  ];
  return [usageSummary(counts), ...extra].filter(Boolean).join(" · ");
}

/** On a compaction marker: what the model calls that wrote the summary used. */
export function CompactionRunLine({ run }: { run: CompactionRunUsage }) {
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 border-t border-zinc-100 px-4 py-1.5 text-xs text-zinc-600"
      data-testid="compaction-run-usage"
    >
      <span className="text-zinc-500">Summariser{run.modelName ? ` (${run.modelName})` : ""}</span>
      <span className="min-w-0 break-words">{usageSummary(run.usage)}</span>
      <span className="text-zinc-500">{plural(run.responses, "response")}, counted with the session</span>
    </p>
  );
}
