// The documents lib/imports/cursor-database.ts reads out of a Cursor state.vscdb, one per chat,
// the versions this importer knows, and the small value helpers the parser shares. Pure.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject } from "../types";

/** The newest composerData `_v` read (16 in Cursor 3.6, 17 in 3.13, 18 the newest a public reader knows: docs/formats.md §12, "Cursor"). */
export const NEWEST_COMPOSER_VERSION = 18;
/** The newest bubble `_v` read (every public reader and the real dump: 3). */
export const NEWEST_BUBBLE_VERSION = 3;

/**
 * One composer (a chat or agent conversation of Cursor's side panel):
 * - `composer`: its composerData JSON as stored (`cursorDiskKV` key `composerData:<id>` of the
 *   global database), or a workspace database's inline entry of `composer.composerData`;
 * - `bubbles`: its bubble rows (`bubbleId:<id>:<bubbleId>`) that its headers list, by bubble id;
 * - `head`: its entry of the global `composer.composerHeaders` index (the sidebar's list, which
 *   names the workspace folder), when the database has one;
 * - `orphanBubbles`: how many bubble rows of the composer no header lists (messages edited away
 *   or regenerated: Cursor keeps them but shows them nowhere), left out.
 */
export type CursorComposerDocument = {
  cursor: "composer";
  composerId: string;
  composer: JsonObject;
  bubbles: Record<string, JsonValue>;
  head?: JsonObject | null;
  orphanBubbles?: number;
};

/** One tab of the old chat panel (ItemTable `workbench.panel.aichat.view.aichat.chatdata`, `tabs[]`). */
export type CursorChatTabDocument = {
  cursor: "chat-tab";
  tab: JsonObject;
};

export type CursorDocument = CursorComposerDocument | CursorChatTabDocument;

/** The ItemTable key of the old chat panel's tabs. */
export const CHAT_TABS_KEY = "workbench.panel.aichat.view.aichat.chatdata";
/** The ItemTable key of a workspace's composers (ids; whole composers in Cursor 0.4x). */
export const WORKSPACE_COMPOSERS_KEY = "composer.composerData";
/** The ItemTable key of the global composer index (Cursor 3.x). */
export const COMPOSER_HEADERS_KEY = "composer.composerHeaders";

export function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export function num(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function obj(value: JsonValue | undefined): JsonObject | null {
  return isObject(value) ? value : null;
}

/** Unix milliseconds (a number, or digits) to ISO-8601 UTC, or null; values before 2001 are not times. */
export function isoFromMs(value: JsonValue | undefined): string | null {
  const ms = typeof value === "string" && /^\d{12,}$/.test(value) ? Number(value) : value;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 1e12) return null;
  const date = new Date(ms);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

/** A JSON string Cursor stores inside JSON (tool params and results), parsed; other values as they are. */
export function innerJson(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== "string") return value;
  const start = value.trimStart()[0];
  if (start !== "{" && start !== "[") return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

/** A `file://` URI as a path (percent-decoded); other strings as they are. */
export function pathOfUri(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  const rest = uri.slice("file://".length);
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/**
 * The text of a Lexical editor state (Cursor's `richText`, a JSON string): its text nodes in
 * order, paragraphs on lines of their own. Iterative, so a deep document cannot overflow the stack.
 */
export function lexicalText(richText: JsonValue | undefined): string {
  const doc = innerJson(richText);
  const root = isObject(doc) ? doc.root : undefined;
  if (!isObject(root)) return "";
  const out: string[] = [];
  const stack: JsonValue[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === "\n") {
      out.push("\n");
      continue;
    }
    if (!isObject(node)) continue;
    if (typeof node.text === "string") out.push(node.text);
    if (node.type === "linebreak") out.push("\n");
    const children = Array.isArray(node.children) ? node.children : [];
    // A paragraph after its children ends its line.
    if (node.type === "paragraph" || node.type === "code") stack.push("\n");
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out.join("").replace(/\n+$/, "");
}
