/**
 * The activity dashboard's report (GET /api/insights, the /insights page): when the agents
 * worked, which tools they called and failed with, how sessions went, and the models and agents
 * side by side, over a range of local days in a zone. Pure types.
 */
import type { UsageRange } from "../usage/usage-period";

export type InsightsFilters = { source?: string; project?: string; model?: string };

/** A range as resolved (lib/domain/usage/usage-period.ts resolveRange) and the filters. */
export type InsightsQuery = UsageRange & InsightsFilters;

/** One hour of one local day that had any turn. */
export type ActivityCell = {
  /** Local day, "YYYY-MM-DD". */
  day: string;
  /** Local hour, 0-23. */
  hour: number;
  /** Turns of any role written in that hour. */
  turns: number;
  /** Model responses with usage in that hour (as /usage counts them). */
  responses: number;
};

/** Calls of one tool by one agent (a source such as import:claude-code). */
type ToolAgentFigures = { source: string; calls: number; errors: number };

/** A tool's calls in the range, de-duplicated by tool call id, and how many of them failed. */
export type ToolInsight = { name: string; calls: number; errors: number; agents: ToolAgentFigures[] };

export type ModelInsight = {
  model: string;
  responses: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Responses of a model without a known price (counted in the tokens, not in costUsd). */
  unpricedResponses: number;
};

/** How a session ended, when not as expected. */
export type SessionEnding = "error" | "interrupt";

/** A session named on the page, with what it is listed for. */
export type SessionSummary = {
  threadId: string;
  title: string | null;
  source: string;
  project: string | null;
  turns: number;
  /** ISO instants of its first and last turn. */
  startedAt: string;
  endedAt: string;
  compactions: number;
  subagents: number;
  endedWith: SessionEnding | null;
  /** A session the reader may not read (an admin's team figures): listed without its title, and not linked. */
  private?: boolean;
};

/** Sessions are threads that are not a sub-agent of another (their sub-agents count under them). */
export type SessionHealth = {
  count: number;
  withCompaction: number;
  withSubagents: number;
  interrupted: number;
  errored: number;
  /** All compactions of the range's sessions. */
  compactions: number;
  /** The longest sessions by time from first to last turn, longest first (at most 10). */
  longest: SessionSummary[];
  /** The sessions that ended in an error or an interrupt, latest first (at most 20). */
  endedBadly: SessionSummary[];
};

export type AgentInsight = {
  source: string;
  sessions: number;
  turns: number;
  responses: number;
  costUsd: number;
  unpricedResponses: number;
  toolCalls: number;
  toolErrors: number;
};

/**
 * One person's or one machine's figures (the team figures, with sign-in on): the agents' figures,
 * the tokens of its responses, and the hours it was active in. Summed over the threads the report
 * reads, by each thread's owner or machine; only active hours do not add up across rows (two
 * people may work in one hour).
 */
export type TeamFigures = Omit<AgentInsight, "source"> & {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Local hours of the range with any turn of these threads (the heatmap's cells). */
  activeHours: number;
};

/** A person's threads: `id` their user id (the threads nobody owns are the first admin's), `name` as /usage's By person names them. */
export type PersonInsight = TeamFigures & { id: string; name: string };

/** The threads pushed from one machine; `machine` is "" for the server's own (not pushed). */
export type MachineInsight = TeamFigures & { machine: string };

export type InsightsReport = {
  since: string;
  until: string;
  tz: string;
  filters: InsightsFilters;
  /** Hours with turns, in time order. */
  activity: ActivityCell[];
  /** Most called first. */
  tools: ToolInsight[];
  /** Costliest first. */
  models: ModelInsight[];
  sessions: SessionHealth;
  /** Most sessions first. */
  agents: AgentInsight[];
  /** With sign-in on: per person whose threads the report reads, in /usage's By person order (costliest first, then tokens, then id). */
  people?: PersonInsight[];
  /** With sign-in on: per machine, in the same order (by machine last). */
  machines?: MachineInsight[];
};
