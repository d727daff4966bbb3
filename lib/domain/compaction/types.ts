import type { TurnPart, TurnRole } from "@/lib/domain/types";

/**
 * Compaction, as co-cli's context governance designs it (its conversation-memory design), made reviewable:
 * a planner decides which turns a summary replaces and which stay verbatim; a summariser writes
 * the summary; the revision is a new thread, the original is never touched.
 */
export type CompactionStrategy = "full" | "window" | "range" | "trim-tool-output";
export const COMPACTION_STRATEGIES: readonly CompactionStrategy[] = ["full", "window", "range", "trim-tool-output"];

/** What planners and summarisers read of a turn. */
export type CompactionTurn = {
  index: number;
  role: TurnRole;
  content: string;
  parts: TurnPart[] | null;
  toolName: string | null;
  modelName: string | null;
  files: string[];
  images: string[];
};

/** Sliding window (co-cli's truncate_history_window): fires over a turn count or a token count. */
export type WindowOptions =
  | { trigger: "turns"; maxTurns: number }
  /** `tokens[i]` is turn i's count under the target model's tokenizer. */
  | { trigger: "tokens"; maxTokens: number; tokens: number[] };

/** "Summarise up to here" (turns 0..at) or "summarise from here" (turns at..end), inclusive. */
export type RangeOptions = { direction: "up-to" | "from"; at: number };

/** Tool outputs longer than maxChars (0 disables) in all but the last exchange cut to head and tail. */
export type TrimOptions = { maxChars: number };

export type CompactionOptions =
  | { strategy: "full" }
  | ({ strategy: "window" } & WindowOptions)
  | ({ strategy: "range" } & RangeOptions)
  | ({ strategy: "trim-tool-output" } & TrimOptions);

/** A tool output cut to its head and tail. */
export type TrimmedOutput = {
  index: number;
  /** The part cut (a tool_result), or null when the turn's content itself was cut (a tool turn without parts). */
  partIndex: number | null;
  charsBefore: number;
  charsAfter: number;
};

/**
 * A planner's answer. Indexes are turn indexes of the original thread, each list ascending.
 * `replaced` is one contiguous run that the summary turn stands in for, at its position; empty
 * when the plan summarises nothing (trimming, or nothing to do: see `noop`).
 */
export type CompactionPlan = {
  strategy: CompactionStrategy;
  keptBefore: number[];
  replaced: number[];
  keptAfter: number[];
  trimmed: TrimmedOutput[];
  /** Set when the plan changes nothing, saying why ("under the threshold", "limit 0 disables"). */
  noop: string | null;
  /** Boundaries moved so that no tool call is separated from its result, described for the preview. */
  adjustments: string[];
  /** trim-tool-output only: the maxChars the `trimmed` outputs are cut to, so the revision can cut them the same way. */
  trimChars?: number;
};

/** A turn of the compacted revision, before it is stored. */
export type RevisionTurn = {
  /** The original turn it copies (possibly trimmed), or null for the summary and its acknowledgement. */
  from: number | null;
  role: TurnRole;
  content: string;
  parts: TurnPart[] | null;
  toolName: string | null;
  modelName: string | null;
  files: string[];
  images: string[];
};

/** File paths and tool names a set of turns mentions; a summary should keep every one. */
export type References = { paths: string[]; tools: string[] };

/** The static marker used when no summary is wanted or the summariser failed. */
export function staticMarker(removed: number): string {
  return `[Earlier conversation trimmed - ${removed} messages removed to stay within context budget]`;
}

export const FULL_SUMMARY_HEADER = "[Compacted conversation summary]";
export const FULL_ACKNOWLEDGEMENT = "Understood. I have the conversation context.";
export const summaryHeader = (replaced: number) => `[Summary of ${replaced} earlier messages]`;
export const DEFAULT_TRIM_CHARS = 2_000;

/** How the replaced turns are summarised: by extract, by a model, or into a marker. */
export const SUMMARIZERS = ["extractive", "llm", "marker"] as const;
export type SummarizerKind = (typeof SUMMARIZERS)[number];

/** What a compaction would do, shown before anything is written. */
export type CompactionPreview = {
  threadId: string;
  strategy: CompactionStrategy;
  summarizer: SummarizerKind | "none";
  summarizerModel: string | null;
  targetModel: string | null;
  tokenizer: { id: string; label: string; exact: boolean };
  options: Record<string, unknown>;
  plan: Omit<CompactionPlan, "noop">;
  /** The summary the replaced turns become (null when trimming). */
  summary: string | null;
  turnsBefore: number;
  turnsAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Paths and tool names the replaced turns mention, and those the summary would lose. */
  references: References;
  lostReferences: References;
  /** Set when applying would be refused: the compacted history is not smaller. */
  refusal: string | null;
  durationMs: number;
};
