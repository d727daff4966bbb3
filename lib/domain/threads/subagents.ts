/**
 * Which tool call started which sub-agent thread: one rule for the thread page (its tool index)
 * and the readable export. A child is a sub-agent when its relation says so; it belongs to the
 * call its relation's toolCallId names, else (Claude Code agent files) to the call whose result
 * names its agentId (the first such result). Pure.
 */
import type { ChildThreadLink } from "./links";
import type { Turn } from "../types";

/**
 * The sub-agent children of `children` by the id of the tool call that started each (in the
 * children's order). `callIds`: the calls that can be paired (a call not among them pairs nothing);
 * `results`: the tool results read, each with the agentId it names if any.
 */
export function pairSubagents<C extends ChildThreadLink>(
  callIds: { has(id: string): boolean },
  results: Iterable<{ toolCallId: string; agentId?: unknown }>,
  children: readonly C[],
): Map<string, C[]> {
  const callByAgent = new Map<string, string>();
  for (const result of results) {
    if (typeof result.agentId === "string" && !callByAgent.has(result.agentId)) callByAgent.set(result.agentId, result.toolCallId);
  }
  const byCall = new Map<string, C[]>();
  for (const child of children) {
    const relation = child.relation;
    if (relation?.kind !== "subagent") continue;
    const callId = relation.toolCallId ?? (relation.agentId ? callByAgent.get(relation.agentId) : undefined);
    if (!callId || !callIds.has(callId)) continue;
    byCall.set(callId, [...(byCall.get(callId) ?? []), child]);
  }
  return byCall;
}

/** pairSubagents over a whole thread's turns: every call and result they hold. */
export function subagentsOfTurns<C extends ChildThreadLink>(turns: readonly Turn[], children: readonly C[]): Map<string, C[]> {
  const calls = new Set<string>();
  // The first result of each call, as the page pairs them.
  const results = new Map<string, { toolCallId: string; agentId?: unknown }>();
  for (const turn of turns) {
    for (const part of turn.parts ?? []) {
      if (part.type === "tool_call") calls.add(part.id);
      if (part.type === "tool_result" && !results.has(part.toolCallId)) results.set(part.toolCallId, part);
    }
  }
  return pairSubagents(calls, results.values(), children);
}
