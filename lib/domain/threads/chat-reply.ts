import type { AppErrorCode, LlmErrorKind } from "../errors";
import type { Turn } from "../types";

// What a chat reply is and answers (client-safe: types and constants only).

/** What the chat answers about the history it sent. */
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

/** The tool name chat turns carry, beside the tools imports and agents record. */
export const CHAT_TOOL_NAME = "chat";
/** How long the provider may stay silent: before its first chunk, and between chunks. */
export const CHAT_IDLE_TIMEOUT_MS = 120_000;
/** The window assumed for a model neither the catalog nor Settings' custom models know. */
export const ASSUMED_CONTEXT_WINDOW = 32_768;

/** What a failed reply answers: why, with what was kept. */
export type ChatFailure = {
  /** provider_failed (424) when the model's provider failed; else what the store answered (turn_limit, expired...). */
  code: AppErrorCode;
  message: string;
  kind: LlmErrorKind | "storage";
  /** The provider's HTTP status, when it answered with one. */
  providerStatus: number | null;
  /** The user's turn, marked unanswered unless part of a reply was kept. */
  userTurn: Turn;
  /** The part of the reply that arrived before the failure, stored marked incomplete; or null. */
  partialTurn: Turn | null;
};

export type ChatEvent =
  { type: "delta"; text: string } | { type: "done"; turn: Turn; userTurn: Turn } | { type: "failed"; failure: ChatFailure };

type ChatStart = { userTurn: Turn; model: string; budget: ChatBudget };

export type ChatReply =
  /** Failed before any of the reply arrived. */
  | (ChatStart & { status: "failed"; failure: ChatFailure })
  /** Arriving: the events end with "done" or "failed" once the reply is stored. */
  | (ChatStart & { status: "streaming"; events: AsyncIterable<ChatEvent>; stop(): void });

export type ChatOptions = { signal?: AbortSignal; timeoutMs?: number };
