import type { BuiltHistory, TokenAllocation } from "@/lib/domain/history";

/** The answer of GET /api/threads/:id/context (client-safe: types only). */
export type ContextSections = BuiltHistory["sections"] & { free: number; reservedForResponse: number };

export type ContextPreview = {
  model: { id: string; provider: string; contextWindow: number; maxOutputTokens: number | null } | null;
  mode: "exact" | "pal";
  tokenizer: { id: string; label: string };
  exact: boolean;
  allocation: TokenAllocation;
  files: {
    included: { path: string; tokens: number; source: "snapshot" | "root" }[];
    skipped: { path: string; reason: string; tokens: number | null }[];
  };
  turns: { included: number[]; excluded: number[] };
  perTurn: (BuiltHistory["perTurn"][number] & { threadId: string; turnId: string; index: number })[];
  sections: ContextSections;
  totalTokens: number;
  text: string;
};
