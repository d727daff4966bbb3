/**
 * A thread's usage with everything it ran: sub-agent threads (recursively) and the model calls that
 * compacted it. What the sub-agents' transcripts recorded is what is summed; what a parent's tool
 * result reports of a sub-agent is shown beside it, never added too. Pure.
 */
import {
  USAGE_FIELDS,
  type AgentReport,
  type CompactionRunUsage,
  type JsonValue,
  type SessionUsage,
  type SubagentUsage,
  type ThreadUsage,
  type UsageCounts,
  type UsageField,
} from "../types";
import { reportedUsage } from "./usage";

/** A sub-agent thread as the sum needs it: its entry before the parent's report is matched to it. */
export type SubagentNode = Omit<SubagentUsage, "reported" | "differs">;

/** A parent's tool result naming a sub-agent (by its call, or by the agent's id) with what it reports. */
export type AgentReportSighting = { parentThreadId: string; toolCallId: string; agentId: string | null; report: AgentReport };

/** A compaction run as stored: its thread and each response's usage as reported. */
export type CompactionRunRecord = {
  threadId: string;
  runId: string;
  afterTurnKey: string | null;
  modelProvider?: string | null;
  modelName: string | null;
  responses: { usage: JsonValue; timestamp?: string | null }[];
};

const zero = (): UsageCounts => ({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });

function add(total: UsageCounts, usage: UsageCounts): void {
  for (const field of USAGE_FIELDS) total[field] += usage[field];
}

/** A run's usage: its responses' reported counts, summed. */
export function compactionRunUsage(run: CompactionRunRecord): CompactionRunUsage {
  const usage = zero();
  let responses = 0;
  for (const response of run.responses) {
    const counts = reportedUsage({ usage: response.usage });
    if (!counts) continue;
    add(usage, counts);
    responses++;
  }
  return { runId: run.runId, modelName: run.modelName, responses, usage };
}

/** Reads a tool result part's agentReport (lib/importers/claude-code/usage.ts writes it); null when it is none. */
export function agentReportOf(value: JsonValue | undefined): AgentReport | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const report: AgentReport = {};
  for (const field of [...USAGE_FIELDS, "totalTokens", "toolUses", "durationMs"] as const) {
    const n = value[field];
    if (typeof n === "number" && Number.isFinite(n) && n >= 0) report[field] = n;
  }
  return Object.keys(report).length > 0 ? report : null;
}

/** The fields a report gives that differ from the recorded final response (all of them when nothing was recorded). */
function differences(report: AgentReport, recorded: UsageCounts | null): UsageField[] {
  return USAGE_FIELDS.filter((field) => report[field] !== undefined && report[field] !== (recorded?.[field] ?? 0));
}

/**
 * `own`: the thread's own responses; `subagents`: every sub-agent thread below it; `runs`: the
 * compaction runs of the thread and of its sub-agents; `reports`: the sub-agents' parents' reports.
 */
export function sessionUsage(
  own: ThreadUsage,
  subagents: readonly SubagentNode[],
  runs: readonly CompactionRunRecord[],
  reports: readonly AgentReportSighting[],
): SessionUsage {
  const total = zero();
  add(total, own);
  const sources = new Set<ThreadUsage["source"]>([own.source]);
  const runUsage = new Map<string, UsageCounts>();
  for (const run of runs) {
    const { usage, responses } = compactionRunUsage(run);
    add(total, usage);
    if (responses > 0) sources.add("reported");
    const sum = runUsage.get(run.threadId) ?? zero();
    add(sum, usage);
    runUsage.set(run.threadId, sum);
  }
  const listed: SubagentUsage[] = subagents.map((node) => {
    add(total, node.usage);
    sources.add(node.usage.source);
    const sighting =
      reports.find((r) => r.parentThreadId === node.parentThreadId && node.toolCallId !== null && r.toolCallId === node.toolCallId) ??
      reports.find((r) => r.parentThreadId === node.parentThreadId && node.agentId !== null && r.agentId === node.agentId);
    const usage = { ...node.usage };
    const ownRuns = runUsage.get(node.threadId);
    if (ownRuns) for (const field of USAGE_FIELDS) usage[field] += ownRuns[field];
    return {
      threadId: node.threadId,
      parentThreadId: node.parentThreadId,
      title: node.title,
      agentId: node.agentId,
      toolCallId: node.toolCallId ?? sighting?.toolCallId ?? null,
      usage,
      lastResponse: node.lastResponse,
      reported: sighting?.report ?? null,
      differs: sighting ? differences(sighting.report, node.lastResponse) : [],
    };
  });
  const source =
    sources.has("mixed") || (sources.has("reported") && sources.has("estimated"))
      ? "mixed"
      : sources.has("reported")
        ? "reported"
        : "estimated";
  return { ...total, source, subagentThreads: subagents.length, compactionRuns: runs.length, subagents: listed };
}
