// The shapes the ChatGPT importer's parts share: mapping nodes, open tool calls, rendered content.
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import { type ImportedTurn } from "../types";

/** Cap on fork threads per conversation: an export can hold hundreds of regenerations. */
export const MAX_FORKS_PER_CONVERSATION = 100;

/** Content types ChatGPT uses for context it never displays as a message. */
export const INVISIBLE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  "user_editable_context",
  "model_editable_context",
  "app_pairing_content",
]);

export type Json = Record<string, JsonValue>;

export type MappingNode = {
  id: string;
  parent: string | null;
  children: string[];
  message: Json | null;
};

export type OpenCall = { id: string; name: string };

/** A node, converted once: its turn (if visible) and the tool call still open after it. */
export type ConvertedNode = { turn: ImportedTurn | null; openCallAfter: OpenCall | null };

export type Rendered = { text: string; parts: TurnPart[] };
