/** What the chat answers about the history it sent (client-safe: types only). */
export type ChatBudget = {
  /** The catalog or custom model whose window and tokenizer budgeted the history; null when assumed. */
  catalogModel: string | null;
  contextWindow: number;
  /** Neither the catalog nor the request knew the window: ASSUMED_CONTEXT_WINDOW was used. */
  assumed: boolean;
  tokenizer: string;
  historyTokens: number;
  turnsIncluded: number;
  turnsTotal: number;
};
