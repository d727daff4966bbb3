import "server-only";
import { searchTerms } from "@/lib/domain/threads/search";
import { buildOutline, type ThreadOutline } from "@/lib/domain/threads/turn-outline";
import { db } from "../engine/client";
import { findTurnIndexes, subagentCallTurns, turnFlags } from "./dialect-turns";
import { getThread, getThreadLinks } from "./threads";

type Visibility = { includeExpired?: boolean };

/** Enough children to tie every sub-agent of a long agent session to its tool call (as the thread page). */
const CHILD_LIMIT = 1_000;

/**
 * A thread's outline (lib/domain/threads/turn-outline.ts): each turn's role and whether it holds a tool
 * call, a failed tool result, a compaction marker or the call that started a sub-agent thread.
 * No content is read into the application.
 */
export async function getThreadOutline(threadId: string, visibility: Visibility = {}): Promise<ThreadOutline> {
  const thread = await getThread(threadId, visibility);
  // Every child: only the flags of this thread's own turns come out of them (its reader may read it).
  const client = await db();
  const [rows, links] = await Promise.all([turnFlags(client, threadId), getThreadLinks(thread, null, { childLimit: CHILD_LIMIT })]);
  // As the conversation view pairs them (lib/domain/threads/subagents.ts): by the relation's
  // tool-call id, else by the agent id the call's result names.
  const toolCallIds: string[] = [];
  const agentIds: string[] = [];
  for (const { relation } of links.children) {
    if (relation?.kind !== "subagent") continue;
    if (relation.toolCallId) toolCallIds.push(relation.toolCallId);
    else if (relation.agentId) agentIds.push(relation.agentId);
  }
  return buildOutline(rows, await subagentCallTurns(client, threadId, { toolCallIds, agentIds }));
}

/** At most this many matches are listed; `capped` says there are more. */
const FIND_LIMIT = 1_000;

export type FindInThread = { terms: string[]; indexes: number[]; capped: boolean };

/**
 * The turns of one thread whose content matches every word of `query` in the full-text index (as
 * the thread list's search does), as 0-based indexes in order: the thread page steps through them.
 */
export async function findInThread(
  threadId: string,
  query: string,
  { limit = FIND_LIMIT, ...visibility }: Visibility & { limit?: number } = {},
): Promise<FindInThread> {
  await getThread(threadId, visibility);
  const terms = searchTerms(query);
  const found = await findTurnIndexes(await db(), threadId, terms, limit + 1);
  return { terms, indexes: found.slice(0, limit), capped: found.length > limit };
}
