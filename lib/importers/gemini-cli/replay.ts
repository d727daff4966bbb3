// Replaying the JSONL's history rewrites: $rewindTo and a $set of the whole message list.
import type { JsonValue } from "@/lib/domain/types";
import { isObject, type SkippedEntry } from "../types";
import { MessageAt } from "./shapes";

// --- replay ------------------------------------------------------------------------------------

/** Drops `id` and every message after it (Map order). False when `id` is not there. */
export function rewindTo(messages: Map<string, MessageAt>, id: string): boolean {
  if (!messages.has(id)) return false;
  let dropping = false;
  for (const key of [...messages.keys()]) {
    if (key === id) dropping = true;
    if (dropping) messages.delete(key);
  }
  return true;
}

/** `$set.messages`: the message list as gemini-cli rewrote it replaces everything recorded so far. */
export function replaceHistory(messages: Map<string, MessageAt>, replacement: JsonValue[], line: number, skipped: SkippedEntry[]): void {
  messages.clear();
  replacement.forEach((message, index) => {
    if (!isObject(message)) {
      skipped.push({ line, reason: `$set.messages[${index}]: not a JSON object` });
    } else if (typeof message.id !== "string" || !message.id) {
      skipped.push({ line, reason: `$set.messages[${index}]: id missing or not a string` });
    } else {
      messages.set(message.id, { record: message, where: { line } });
    }
  });
}
