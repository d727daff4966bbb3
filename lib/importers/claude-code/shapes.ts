// What the Claude Code importer's passes share: the source, the plan of threads, file-name patterns.
import { type ImportedCompactionRun, type ImportedThread, type SkippedEntry } from "../types";

export type ClaudeCodeSource = {
  /** File name (or path): `<sessionId>.jsonl`, `agent-<id>.jsonl`. */
  name: string;
};

export type EntryKind =
  "prompt" | "user" | "tool-result" | "assistant" | "compact-boundary" | "compact-summary" | "system" | "meta" | "chain-only";

/** What the first pass keeps of each entry. */
export type Skeleton = {
  uuid: string;
  parent: string | null;
  line: number;
  kind: EntryKind;
  time: number;
  sidechain: boolean;
};

export type ThreadPlan = {
  thread: Omit<ImportedThread, "turns">;
  /** Lines (1-based) whose entries make this thread's turns, ascending. */
  lines: Set<number>;
};

export type Plan = {
  threads: ThreadPlan[];
  skipped: SkippedEntry[];
  warnings: string[];
  /** Set for an `agent-acompact-*` file, which gives no thread. */
  compactionRuns?: ImportedCompactionRun[];
};

export const UUID_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
export const AGENT_NAME = /(?:^|[\\/])agent-([\w-]+)\.jsonl$/i;

export type { ThreadTurn } from "../types";
