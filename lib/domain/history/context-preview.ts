import type { BuiltHistory, TokenAllocation, TurnSelection } from "@/lib/domain/history";

/** The answer of GET /api/threads/:id/context (client-safe: types only). */
type ContextSections = BuiltHistory["sections"] & { free: number; reservedForResponse: number };

export type ContextPreview = {
  model: { id: string; provider: string; contextWindow: number; maxOutputTokens: number | null } | null;
  mode: "exact" | "pal";
  tokenizer: { id: string; label: string };
  /** False for an estimating tokenizer, and when a turn's count is estimated (see perTurn[].estimated). */
  exact: boolean;
  allocation: TokenAllocation;
  files: {
    included: { path: string; tokens: number; source: "snapshot" | "root" }[];
    skipped: { path: string; reason: string; tokens: number | null }[];
  };
  turns: TurnSelection;
  /**
   * Every turn's tokens, oldest first, when asked for (`perTurn=1`): measuring them all costs what
   * the chain's length does, the rest of a preview only what it sends. `estimated` is given (true)
   * for a turn whose content held a run too long to tokenize whole, counted in pieces.
   */
  perTurn?: (BuiltHistory["perTurn"][number] & { threadId: string; turnId: string; index: number; estimated?: true })[];
  sections: ContextSections;
  totalTokens: number;
  text: string;
};

/** A preview asked for with `perTurn=1`, as the budget page asks. */
export type ContextPreviewWithTurns = ContextPreview & { perTurn: NonNullable<ContextPreview["perTurn"]> };
