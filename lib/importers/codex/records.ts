// Decoding a rollout's lines into records: the envelope format (`RolloutLine {timestamp, type,
// payload}`, openai/codex codex-rs/protocol/src/protocol.rs) and the pre-September-2025 "bare"
// layout (a header line, then bare response items).
import type { JsonValue } from "@/lib/domain/types";
import { ImportFormatError, isObject, type NumberedLine, type SkippedEntry } from "../types";
import { isoOrNull } from "./values";

type Json = Record<string, JsonValue>;

/** Top-level line types of the envelope format. */
const ENVELOPE_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const USER_MESSAGE_EVENT = /"type"\s*:\s*"user_message"/;

export type RolloutRecord = { line: number; timestamp: string | null; type: string; payload: Json };

export type DecodedRollout = {
  records: RolloutRecord[];
  /** The header line of a bare rollout; null for the envelope format. */
  bare: Json | null;
  skipped: SkippedEntry[];
  /** No typed-prompt event in the whole file: user turns come from user-role items. */
  promptsFromItems: boolean;
};

/** A cheap check on the first parsed line and the file name. */
export function looksLikeCodexRollout(firstLine: unknown, fileName: string): boolean {
  if (!isObject(firstLine)) return false;
  const type = firstLine.type;
  if (type === "session_meta") return isObject(firstLine.payload);
  if (typeof type === "string") return ENVELOPE_TYPES.has(type) && isObject(firstLine.payload) && typeof firstLine.timestamp === "string";
  return isBareHeader(firstLine) && ("instructions" in firstLine || /(^|[\\/])rollout-[^\\/]*\.jsonl$/i.test(fileName));
}

/** Line 1 of a pre-Sept-2025 rollout: `{id, timestamp, instructions, git}`, no `type`. */
function isBareHeader(value: Json): boolean {
  return (
    value.type === undefined &&
    typeof value.id === "string" &&
    typeof value.timestamp === "string" &&
    ("instructions" in value || "git" in value || "cwd" in value)
  );
}

/** The records of a rollout, in file order; lines that are not records are skipped with the reason. */
export function decodeRollout(lines: NumberedLine[], fileName: string): DecodedRollout {
  const skipped: SkippedEntry[] = [];
  const records: RolloutRecord[] = [];
  const lastLine = [...lines].reverse().find((l) => l.text.trim())?.line;
  let bare: Json | null = null;
  let first = true;
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    const value = parseLine(text, line, line === lastLine, skipped);
    if (!value) continue;
    if (first) {
      first = false;
      if (!looksLikeCodexRollout(value, fileName)) {
        throw new ImportFormatError(
          `line ${line} is not a Codex rollout record (expected a session_meta line, or another {timestamp, type, payload} rollout line)`,
          line,
        );
      }
      if (isBareHeader(value)) {
        bare = value;
        continue;
      }
    }
    const record = bare ? bareRecord(value, line, skipped) : envelopeRecord(value, line, skipped);
    if (record) records.push(record);
  }
  if (first) throw new ImportFormatError("no Codex rollout lines: the file is empty or holds no JSON objects");
  const promptsFromItems = bare !== null || !lines.some((l) => USER_MESSAGE_EVENT.test(l.text));
  return { records, bare, skipped, promptsFromItems };
}

function parseLine(text: string, line: number, isLast: boolean, skipped: SkippedEntry[]): Json | null {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    skipped.push({ line, reason: isLast ? "truncated last line (the session may still be running)" : "not valid JSON" });
    return null;
  }
  if (!isObject(value)) {
    skipped.push({ line, reason: "not a JSON object" });
    return null;
  }
  return value;
}

/** Pre-Sept-2025: bare response items, `{"record_type":"state"}` markers, no envelope. */
function bareRecord(value: Json, line: number, skipped: SkippedEntry[]): RolloutRecord | null {
  if (value.record_type !== undefined) return null;
  if (typeof value.type !== "string") {
    skipped.push({ line, reason: "type: missing (expected a response item)" });
    return null;
  }
  return { line, timestamp: isoOrNull(value.timestamp), type: "response_item", payload: value };
}

function envelopeRecord(value: Json, line: number, skipped: SkippedEntry[]): RolloutRecord | null {
  if (typeof value.type !== "string") {
    skipped.push({ line, reason: "type: missing or not a string" });
    return null;
  }
  if (!ENVELOPE_TYPES.has(value.type)) return null; // newer record types (world_state, …): not needed
  if (!isObject(value.payload)) {
    skipped.push({ line, reason: `payload of the ${value.type} line: missing or not an object` });
    return null;
  }
  return { line, timestamp: isoOrNull(value.timestamp), type: value.type, payload: value.payload };
}
