import type { SessionFigures, Thread, Turn } from "@/lib/domain/types";

/**
 * A thread as the readable exports write it: its turns (each response with its usage and price),
 * its session's figures as the thread header shows them, and (when asked) the sub-agent threads
 * its tool calls started, each under the call's id, recursively. Plain data (no Map): the service
 * redacts it whole before it is rendered.
 */
export type ReadableThread = {
  thread: Thread;
  turns: Turn[];
  figures: SessionFigures | null;
  subagents: { callId: string; thread: ReadableThread }[];
};

/**
 * What one export holds: a thread, or a chain of them oldest first. `redacted`: secrets were
 * replaced by `[REDACTED:<kind>:<fingerprint>]`, which the header says; `shared`: written for a
 * share link (not indexed by search engines, and it says so).
 */
export type ReadableDocument = { threads: ReadableThread[]; redacted: boolean; shared: boolean };
