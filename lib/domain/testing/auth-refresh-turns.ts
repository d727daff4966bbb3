import type { CompactionTurn } from "../compaction/types";
import { AUTH_REFRESH_CHAIN } from "../threads/demo-conversation";
import { turnsOf } from "./compaction-turns";

/** A realistic debugging run for the compaction tests: the demo set's auth-refresh chain as one run of turns. */
export function authRefreshTurns(): CompactionTurn[] {
  const chain = [...AUTH_REFRESH_CHAIN.analyze, ...AUTH_REFRESH_CHAIN.codereview, ...AUTH_REFRESH_CHAIN.debug];
  return turnsOf(
    ...chain.map((turn) => ({
      role: turn.role,
      content: turn.content,
      files: turn.files ?? [],
      images: turn.images ?? [],
      toolName: turn.toolName ?? null,
      modelName: turn.modelName ?? null,
      parts: turn.parts ?? null,
    })),
  );
}
