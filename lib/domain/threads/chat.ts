/**
 * How the chat marks its turns in modelMetadata: a user message no model answered (the provider
 * failed; a retry answers it) and a reply cut short (stopped, or the connection dropped), kept
 * as far as it arrived. Pure.
 */
import type { JsonObject, Turn } from "../types";

export const UNANSWERED_KEY = "unanswered";
export const INCOMPLETE_KEY = "incomplete";

export type ChatMark = { kind: "unanswered" | "incomplete"; reason: string };

function reasonIn(metadata: JsonObject | null, key: string): string | null {
  const mark = metadata?.[key];
  if (!mark || typeof mark !== "object" || Array.isArray(mark)) return null;
  return typeof mark.reason === "string" ? mark.reason : "";
}

/** The chat's mark on a turn, or null. */
export function chatMark(turn: Pick<Turn, "role" | "modelMetadata">): ChatMark | null {
  if (turn.role === "user") {
    const reason = reasonIn(turn.modelMetadata, UNANSWERED_KEY);
    return reason === null ? null : { kind: "unanswered", reason };
  }
  if (turn.role === "assistant") {
    const reason = reasonIn(turn.modelMetadata, INCOMPLETE_KEY);
    return reason === null ? null : { kind: "incomplete", reason };
  }
  return null;
}

/** Whether a turn is a user message the chat model never answered. */
export function isUnanswered(turn: Pick<Turn, "role" | "modelMetadata">): boolean {
  return chatMark(turn)?.kind === "unanswered";
}

/** Metadata with the unanswered mark removed (null when nothing else is left). */
export function withoutUnansweredMark(metadata: JsonObject | null): JsonObject | null {
  if (!metadata || !(UNANSWERED_KEY in metadata)) return metadata;
  const { [UNANSWERED_KEY]: _mark, ...rest } = metadata;
  return Object.keys(rest).length > 0 ? rest : null;
}
