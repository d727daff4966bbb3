// A ModelRequest's parts as turns: prompts, tool returns, retries.
import type { JsonValue, TurnRole } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type SkippedEntry } from "../types";
import { isoUtc } from "../text";
import {
  nonEmptyString,
  renderRetryContent,
  renderToolContent,
  renderUserContent,
  toolNameKey,
  withoutBinaryData,
  type JsonRecord,
} from "./content";

type Keyless = Omit<ImportedTurn, "key"> & { partIndex: number };

export function requestTurns(message: JsonRecord, parts: JsonValue[], index: number, skipped: SkippedEntry[]): ImportedTurn[] {
  const made: Keyless[] = [];
  const fallbackTime = isoUtc(message.timestamp);
  parts.forEach((part, partIndex) => {
    const path = `[${index}].parts[${partIndex}]`;
    if (!isObject(part)) {
      skipped.push({ path, reason: "must be a part object with a part_kind" });
      return;
    }
    const timestamp = isoUtc(part.timestamp) ?? fallbackTime;
    const kind = part.part_kind;
    if (kind === "system-prompt" || kind === "user-prompt") {
      const rendered =
        kind === "user-prompt"
          ? renderUserContent(part.content)
          : typeof part.content === "string"
            ? { text: part.content, parts: null }
            : null;
      if (!rendered) {
        skipped.push({ path, reason: `content: must be a string${kind === "user-prompt" ? " or a list of user content" : ""}` });
        return;
      }
      const role: TurnRole = kind === "user-prompt" ? "user" : "system";
      made.push({ partIndex, role, content: rendered.text, ...(rendered.parts ? { parts: rendered.parts } : {}), timestamp });
    } else if (kind === "tool-return" || (typeof kind === "string" && kind.endsWith("-return") && kind !== "builtin-tool-return")) {
      // Typed subclasses (tool-search-return, ...) are tool returns too.
      const toolCallId = nonEmptyString(part.tool_call_id);
      if (!toolCallId) {
        skipped.push({ path, reason: "tool_call_id: must be a non-empty string" });
        return;
      }
      const isError = part.outcome === "failed" || part.outcome === "denied";
      made.push({
        partIndex,
        role: "tool",
        content: renderToolContent(part.content),
        parts: [
          {
            type: "tool_result",
            toolCallId,
            content: withoutBinaryData(part.content ?? null),
            ...(isError ? { isError: true } : {}),
            ...toolNameKey(part),
          },
        ],
        timestamp,
      });
    } else if (kind === "retry-prompt") {
      const text = renderRetryContent(part.content);
      const toolCallId = nonEmptyString(part.tool_call_id);
      // pydantic-ai fills tool_call_id even for output-validation retries; tool_name tells them apart.
      if (toolCallId && nonEmptyString(part.tool_name)) {
        made.push({
          partIndex,
          role: "tool",
          content: text,
          parts: [{ type: "tool_result", toolCallId, content: text, isError: true, ...toolNameKey(part) }],
          timestamp,
        });
      } else {
        made.push({ partIndex, role: "user", content: text, timestamp, metadata: { retryPrompt: true } });
      }
    }
    // Other part kinds (instruction, tool-availability-delta, ...) carry nothing to show.
  });
  return made.map(({ partIndex, ...turn }) => ({ ...turn, key: made.length > 1 ? `${index}:${partIndex}` : String(index) }));
}
