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
