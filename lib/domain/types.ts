import type { ThreadVisibility } from "./access";

/** Roles a turn may have. PAL uses user/assistant; imported transcripts add system and tool. */
export const TURN_ROLES = ["user", "assistant", "system", "tool"] as const;
export type TurnRole = (typeof TURN_ROLES)[number];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Token usage fields, as lib/domain/usage/usage.ts reads and sums them. */
export const USAGE_FIELDS = ["inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens", "reasoningTokens"] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];
export type UsageCounts = Record<UsageField, number>;

/**
 * What pricing needs of a response beyond the counts, where the source says so: the cache writes
 * split by how long they are kept (Claude Code's usage.cache_creation; the 1-hour ones cost more;
 * the rest of cacheWriteTokens is priced as 5-minute writes), and a cost the source computed itself
 * (OpenCode, Pi and Aider record one), kept as reported.
 */
export type UsageDetails = { cacheWrite5mTokens?: number; cacheWrite1hTokens?: number; reportedCostUsd?: number };

/** One model response's usage. "estimated": input is the thread's earlier turns, output this turn. */
export type TurnUsage = UsageCounts & UsageDetails & { source: "reported" | "estimated" };
/** A thread's totals; "mixed" when some responses reported usage and others were estimated. */
export type ThreadUsage = UsageCounts & { source: "reported" | "estimated" | "mixed" };

/** The model calls that compacted a thread (Claude Code's acompact files), shown on the compaction marker they made. */
export type CompactionRunUsage = { runId: string; modelName: string | null; responses: number; usage: UsageCounts };

/** USD amounts, full precision (rounded only for display). */
export type CostBreakdown = { totalUsd: number; inputUsd: number; outputUsd: number; cacheReadUsd: number; cacheWriteUsd: number };

/**
 * One response's price (lib/domain/usage/cost.ts). Unpriced (`priced: false`, amounts 0) when no price is
 * known for its model; `model` names it. `estimated`: priced from estimated usage. `reportedUsd`:
 * the source's own figure, where it records one, beside ours.
 */
export type ResponseCost = CostBreakdown & { priced: boolean; model: string | null; estimated?: true; reportedUsd?: number };

/**
 * Sums of response prices; the responses that could not be priced are counted and their models
 * named, never added as 0 silently. `reported`: the agents' own figures (ResponseCost.reportedUsd)
 * summed over the responses that carry one, beside ours, never mixed into them; absent when none does.
 */
export type CostTotals = CostBreakdown & { unpricedResponses: number; unpricedModels: string[]; reported?: ReportedCost };

/** What the agent itself said some responses cost (OpenCode, Pi and Aider record it), and over how many. */
export type ReportedCost = { usd: number; responses: number };

/** What a sub-agent's parent says it used, in its tool result (Claude Code's Task result: the agent's final request, and totals). */
export type AgentReport = Partial<UsageCounts> & { totalTokens?: number; toolUses?: number; durationMs?: number };

/** One sub-agent thread's usage as its transcript recorded it, beside what its parent reports. */
export type SubagentUsage = {
  threadId: string;
  parentThreadId: string;
  title: string | null;
  agentId: string | null;
  toolCallId: string | null;
  /** Its own responses and compaction runs (its sub-agents have entries of their own). */
  usage: ThreadUsage;
  /** Its final response, as recorded. */
  lastResponse: UsageCounts | null;
  /** The parent's report of the final request, where its tool result carries one. */
  reported: AgentReport | null;
  /** Fields the report and the recorded final response disagree on. Totals use the recorded figures, never both. */
  differs: UsageField[];
};

/** A thread's usage with everything it ran: its sub-agent threads (recursively) and its compaction runs. */
export type SessionUsage = ThreadUsage & { subagentThreads: number; compactionRuns: number; subagents: SubagentUsage[] };

/**
 * Structured content of a turn, for sources richer than PAL's plain text (tool calls paired by id,
 * tool results, thinking, images). `content` always carries a readable text rendering as well, so
 * consumers that ignore parts lose nothing essential. Unknown keys are kept (importers add their own).
 */
export type TurnPart =
  | { type: "text"; text: string; [key: string]: JsonValue | undefined }
  | { type: "thinking"; text: string; [key: string]: JsonValue | undefined }
  | { type: "tool_call"; id: string; name: string; arguments?: JsonValue; [key: string]: JsonValue | undefined }
  | { type: "tool_result"; toolCallId: string; content: JsonValue; isError?: boolean; [key: string]: JsonValue | undefined }
  | { type: "image"; path?: string; mediaType?: string; alt?: string; [key: string]: JsonValue | undefined }
  /** A compaction boundary: the turn's content is the summary that replaced the history before it. */
  | {
      type: "compaction";
      trigger?: string | null;
      tokensBefore?: number | null;
      tokensAfter?: number | null;
      [key: string]: JsonValue | undefined;
    };

/** A file's content as the turn saw it; budget previews embed files only from these (or allowed roots). */
export type FileSnapshot = { path: string; content: string };

export type Turn = {
  id: string;
  threadId: string;
  index: number;
  role: TurnRole;
  content: string;
  timestamp: string;
  files: string[];
  images: string[];
  toolName: string | null;
  modelProvider: string | null;
  modelName: string | null;
  modelMetadata: JsonObject | null;
  parts: TurnPart[] | null;
  fileSnapshots: FileSnapshot[];
  tokenEstimate: number;
  /** Real token count of the content with the default tokenizer; null where not read with counts. */
  tokens: number | null;
  /** Given with `tokens`: true when the content held a run too long to tokenize whole, counted in pieces (off by a token or so per piece). */
  tokensEstimated?: boolean;
  /** Model usage of this response, reported by the source or estimated; null for non-responses and where not read with its thread. */
  usage: TurnUsage | null;
  /** On a compaction marker: the model calls that wrote its summary, where the source keeps them. */
  compactionRun?: CompactionRunUsage;
  /** This response's price; null for non-responses; only where usage is read with prices. */
  cost?: ResponseCost | null;
};

export type Thread = {
  id: string;
  parentThreadId: string | null;
  title: string | null;
  toolName: string;
  initialContext: JsonObject;
  metadata: JsonObject | null;
  source: string;
  /** Working directory of an imported agent session; null for others. */
  project: string | null;
  createdAt: string;
  lastUpdatedAt: string;
  expiresAt: string | null;
  /** Computed at read time against the clock: expired threads are kept until purged. */
  expired: boolean;
  turnCount: number;
  tokenEstimate: number;
  /** Real token count of all turns with the default tokenizer; null until every turn is counted. `estimated`: some turn's count is (see Turn.tokensEstimated). */
  tokens: { tokenizer: string; count: number; estimated: boolean } | null;
  modelsUsed: string[];
  /** Usage totals over the thread's responses; only where the thread is read with its turns. */
  usage: ThreadUsage | null;
  /** With its sub-agents and compaction runs; where the thread is read for a page or GET /api/threads/:id. */
  usageWithSubagents?: SessionUsage;
  /** Sum of the prices of its own responses; where usage is read with prices. */
  cost?: CostTotals;
  /** With its sub-agents and compaction runs, as usageWithSubagents. */
  costWithSubagents?: CostTotals;
  /** Its one figure, its session's tokens and cost with their split; where a list, a thread page or the thread API reads it. */
  figures?: SessionFigures;
  /** In the list, on a sub-agent's thread: the title of the thread that ran it (null: untitled or not stored). */
  parentTitle?: string | null;
  /** Whose it is (lib/domain/access); null: the server's own, which is the first admin's. */
  ownerId: string | null;
  /** Who reads it when people sign in: its owner alone, or the whole team. */
  visibility: ThreadVisibility;
  /** The machine it was pushed from; null for the server's own. */
  machine: string | null;
};

/** What some responses used: their tokens as reported (or estimated), and the sum of their prices (lib/domain/usage/thread-figures.ts). */
export type UsagePart = {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Sum of the priced responses' prices; unpriced responses add nothing. */
  costUsd: number;
  responses: number;
  /** Responses of models with no known price: their tokens count, their cost does not. */
  unpricedResponses: number;
  /** Responses whose source reported no usage: estimated with our tokenizer (a lower bound). */
  estimatedResponses: number;
};

/**
 * A thread's one figure (lib/domain/usage/thread-figures.ts): what its session used, the thread with its
 * sub-agent threads (all levels) and the compaction runs of both, and the split.
 */
export type SessionFigures = {
  total: UsagePart;
  parts: { thread: UsagePart; subagents: UsagePart; compactionRuns: UsagePart };
  /** Sub-agent threads in the session (all levels) with responses. */
  subagentThreads: number;
  /** Compaction runs with responses (of the thread and of its sub-agents). */
  compactionRuns: number;
  /** Models of unpriced responses, sorted. */
  unpricedModels: string[];
  /** What the agents themselves recorded as the cost (OpenCode, Pi, Aider): beside ours, never added. */
  reported?: ReportedCost;
};

export type ThreadWithTurns = { thread: Thread; turns: Turn[] };

/**
 * GET /api/threads/:id: the thread with its first turns; past THREAD_TURN_CAP, `turnsTruncated`
 * and `moreTurns`, the paged endpoint's address for the rest.
 */
export type ThreadHead = ThreadWithTurns & { turnsTruncated?: true; moreTurns?: string };

export type ThreadPage = { items: Thread[]; nextCursor: string | null };
