/**
 * What one stored turn tells the activity dashboard: the tool calls it made, the results it holds
 * (failed or not), and what it says about how a session went. Pure: the rollups
 * (lib/db/insights/insights-rollups.ts) are summed from these.
 *
 * A failed tool call is one whose result the importer marked `isError`: Claude Code's `is_error`,
 * Codex's non-zero exit code or `success: false`, Gemini CLI's error status or error response,
 * OpenCode's and Copilot's error status, Pi's `isError` or non-zero exit, ChatGPT's system_error.
 */
import type { JsonObject, TurnPart, TurnRole } from "../types";

export type InsightsTurn = {
  role: TurnRole | string;
  content: string;
  parts: TurnPart[] | null;
  modelMetadata: JsonObject | null;
};

/**
 * What a turn says about how its session is going, where it says anything: `interrupt` (the user
 * stopped the agent), `error` (an API error, or a tool call that failed), `ok` (a message of the
 * user or the model). System turns and tool results that succeeded say nothing.
 */
export type TurnOutcome = "interrupt" | "error" | "ok" | null;

export type TurnInsight = {
  calls: { id: string; name: string }[];
  /** The results of tool calls this turn holds that failed (their call ids). */
  failedCallIds: string[];
  outcome: TurnOutcome;
};

/**
 * The user stopping the agent, as each agent records it: Claude Code's "[Request interrupted by
 * user]" / "[Request interrupted by user for tool use]", Codex's injected <turn_aborted>.
 */
const INTERRUPT_TEXT = /^\s*(\[Request interrupted by user|<turn_aborted>)/;

export function turnInsight(turn: InsightsTurn): TurnInsight {
  const calls: { id: string; name: string }[] = [];
  const failedCallIds: string[] = [];
  for (const part of turn.parts ?? []) {
    if (part.type === "tool_call" && typeof part.id === "string" && part.id !== "")
      calls.push({ id: part.id, name: part.name || "(unnamed)" });
    if (part.type === "tool_result" && part.isError === true && typeof part.toolCallId === "string") failedCallIds.push(part.toolCallId);
  }
  return { calls, failedCallIds, outcome: outcomeOf(turn, failedCallIds.length > 0) };
}

function outcomeOf(turn: InsightsTurn, failedTool: boolean): TurnOutcome {
  const metadata = turn.modelMetadata ?? {};
  // An interrupt first: Claude Code's interrupt of a tool use comes with that tool's failed result.
  if (INTERRUPT_TEXT.test(turn.content) || metadata.aborted === true) return "interrupt";
  if (failedTool || isApiError(turn, metadata)) return "error";
  if (turn.role === "user" || turn.role === "assistant") return "ok";
  return null;
}

/**
 * A response that is an API error: Claude Code's synthetic "API Error: …" message, an OpenCode
 * message with an error (other than an abort), a Pi message that stopped with an error.
 */
function isApiError(turn: InsightsTurn, metadata: JsonObject): boolean {
  if (turn.role !== "assistant") return false;
  if (metadata.synthetic === true && /^\s*API Error/.test(turn.content)) return true;
  return metadata.error === true || (typeof metadata.error === "object" && metadata.error !== null);
}

/**
 * How a session ended: the last outcome its turns said (`ok` meaning it ended as expected). Given
 * the ending so far and the outcomes of turns appended after, in order.
 */
export function sessionEnding(before: TurnOutcome, outcomes: readonly TurnOutcome[]): TurnOutcome {
  let ending = before;
  for (const outcome of outcomes) if (outcome !== null) ending = outcome;
  return ending;
}
