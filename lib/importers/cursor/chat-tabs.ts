// One tab of Cursor's old chat panel (before the composer took over in 2024-2025) as a thread.
// Pure. The tabs sit in a workspace database's ItemTable, key
// `workbench.panel.aichat.view.aichat.chatdata`: {tabs: [{tabId, chatTitle, lastSendTime,
// bubbles: [{type: "user" | "ai", id, text, rawText, modelType, selections, ...}]}]}.
import type { JsonObject } from "@/lib/domain/types";
import { isRealPrompt, titleFromContent } from "@/lib/domain/threads/title";
import { isObject, type ImportedThread, type ImportedTurn, type SkippedEntry } from "../types";
import { isoFromMs, lexicalText, obj, str, type CursorChatTabDocument } from "./document";

/**
 * The key of a chat tab's thread: prefixed, so that it never meets a composer's id.
 * @internal exported for its tests
 */
export function chatTabKey(tabId: string): string {
  return `aichat:${tabId}`;
}

/** A prompt's text: `text`, else the older `delegate.a` or `initText` (a Lexical state), else `rawText`. */
function promptText(bubble: JsonObject): string {
  return str(bubble.text) ?? str(obj(bubble.delegate)?.a) ?? (lexicalText(bubble.initText) || null) ?? str(bubble.rawText) ?? "";
}

/** The code a prompt quoted from the editor (`selections[].text`). */
function selectionsOf(bubble: JsonObject): string[] {
  const selections = Array.isArray(bubble.selections) ? bubble.selections : [];
  return selections.map((s) => (isObject(s) ? str(s.text) : null)).filter((s): s is string => s !== null);
}

export function chatTabThread(doc: CursorChatTabDocument, skipped: SkippedEntry[]): ImportedThread | null {
  const { tab } = doc;
  const tabId = str(tab.tabId)!;
  const bubbles = Array.isArray(tab.bubbles) ? tab.bubbles : [];
  const turns: ImportedTurn[] = [];
  bubbles.forEach((bubble, index) => {
    const path = `${tabId}.bubbles[${index}]`;
    if (!isObject(bubble)) {
      skipped.push({ path, reason: "bubble that is not a JSON object" });
      return;
    }
    const key = str(bubble.id) ?? String(index);
    const timestamp = isoFromMs(bubble.timestamp);
    if (bubble.type === "user") {
      const text = promptText(bubble);
      const selections = selectionsOf(bubble);
      const image = str(obj(bubble.image)?.path);
      turns.push({
        key,
        role: "user",
        content: text,
        parts: text ? [{ type: "text", text }] : [],
        timestamp,
        ...(image ? { images: [image] } : {}),
        metadata: { ...(selections.length > 0 ? { selections } : {}) },
      });
    } else if (bubble.type === "ai") {
      const text = str(bubble.rawText) ?? str(bubble.text) ?? "";
      turns.push({
        key,
        role: "assistant",
        content: text,
        parts: text ? [{ type: "text", text }] : [],
        timestamp,
        modelProvider: null,
        modelName: str(bubble.modelType),
      });
    } else {
      skipped.push({ path, reason: `bubble of unknown type ${JSON.stringify(bubble.type ?? null)} (user or ai)` });
    }
  });
  if (turns.length === 0) return null;
  const firstPrompt = turns.find((turn) => turn.role === "user" && isRealPrompt(turn.content));
  const lastSend = isoFromMs(tab.lastSendTime);
  return {
    key: chatTabKey(tabId),
    title: str(tab.chatTitle) ?? (firstPrompt ? titleFromContent(firstPrompt.content) : null),
    toolName: "cursor",
    // The tab is in a workspace's database, which does not name its folder (workspace.json beside it does).
    project: null,
    createdAt: turns.find((turn) => turn.timestamp)?.timestamp ?? lastSend,
    lastUpdatedAt: lastSend,
    metadata: { tabId, chatPanel: "aichat" },
    turns,
  };
}
