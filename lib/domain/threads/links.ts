// How threads link to each other (chains, sub-agents, forks), as the pages and the API show it.

export type ThreadLink = { id: string; title: string | null };

/** How a child thread came from its parent (imports record it in the child's metadata.relation). */
export type ThreadRelationLink =
  | { kind: "subagent"; toolCallId: string | null; agentId: string | null }
  | { kind: "fork"; atTurnKey: string | null }
  | { kind: "continuation" };

export type ChildThreadLink = ThreadLink & { relation: ThreadRelationLink | null };

export type ForkRecord = { id: string; sourceThreadId: string; forkThreadId: string; atTurn: number; createdAt: string };

/** A thread's forks (newest first) and the fork it is, if it is one. */
export type ForkLinks = {
  forks: (ForkRecord & { forkTitle: string | null })[];
  forkedFrom: (ForkRecord & { sourceTitle: string | null; sourceExists: boolean }) | null;
};

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/**
 * The relation a child thread's metadata (JSON text) records. metadata is a JSON column any API
 * client may fill: anything not shaped like a relation is none.
 */
/** Whether a thread is a sub-agent's (its metadata's relation, as the importers write it). */
export function isSubagentThread(thread: { metadata: { [key: string]: unknown } | null }): boolean {
  const relation = thread.metadata?.relation;
  return !!relation && typeof relation === "object" && !Array.isArray(relation) && (relation as { kind?: unknown }).kind === "subagent";
}

export function relationOf(metadata: string | null): ThreadRelationLink | null {
  let relation: unknown;
  try {
    relation = metadata ? (JSON.parse(metadata) as { relation?: unknown } | null)?.relation : null;
  } catch {
    return null;
  }
  if (!relation || typeof relation !== "object" || Array.isArray(relation)) return null;
  const r = relation as Record<string, unknown>;
  if (r.kind === "subagent") return { kind: "subagent", toolCallId: text(r.toolCallId), agentId: text(r.agentId) };
  if (r.kind === "fork") return { kind: "fork", atTurnKey: text(r.atTurnKey) };
  if (r.kind === "continuation") return { kind: "continuation" };
  return null;
}
