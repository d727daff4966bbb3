// Message records to turns: user prompts, model replies with their tool calls and results, notices.
import type { JsonObject, TurnPart } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type SkippedEntry } from "../types";
import { asPartList, callLine, isoOrNull, mediaPart, parseArguments, renderParts, responseText, usageOf } from "./render";
import { FINISHED_STATUSES, SYSTEM_MESSAGE_TYPES, type JsonRecord, type MessageAt, type ThreadState } from "./shapes";

// --- turns -------------------------------------------------------------------------------------

export function turnsOf({ record, where }: MessageAt, state: ThreadState, skipped: SkippedEntry[]): ImportedTurn[] {
  const id = String(record.id);
  const type = record.type;
  if (typeof type !== "string") {
    skipped.push({ ...where, reason: `message ${id}: type missing or not a string` });
    return [];
  }
  const timestamp = isoOrNull(record.timestamp);
  if (type === "user") {
    const turn = userTurn(id, record, timestamp, state);
    return turn ? [turn] : [];
  }
  if (type === "gemini") return geminiTurns(id, record, timestamp, state);
  if (SYSTEM_MESSAGE_TYPES.has(type)) {
    const rendered = renderParts(record.content, id, state);
    return [{ key: id, role: "system", content: rendered.texts.join("\n"), timestamp, metadata: { messageType: type } }];
  }
  return []; // a message type this parser does not know
}

function userTurn(id: string, record: JsonRecord, timestamp: string | null, state: ThreadState): ImportedTurn | null {
  const rendered = renderParts(record.content, id, state);
  // Everything in it repeated tool results already shown with their calls (a history rewrite).
  if (rendered.parts.length === 0 && rendered.droppedDuplicates) return null;
  const onlyResults = rendered.parts.length > 0 && rendered.parts.every((part) => part.type === "tool_result");
  const metadata: JsonObject = {};
  if (record.displayContent !== undefined && record.displayContent !== null) {
    // What the CLI showed instead of what the model got (e.g. "/init" for the expanded prompt).
    const shown = renderParts(record.displayContent, id, { resultIds: new Set() }).texts.join("\n");
    if (shown !== rendered.texts.join("\n")) metadata.displayContent = shown;
  }
  return {
    key: id,
    role: onlyResults ? "tool" : "user",
    content: rendered.texts.join("\n"),
    ...(rendered.parts.length > 0 ? { parts: rendered.parts } : {}),
    timestamp,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function geminiTurns(id: string, record: JsonRecord, timestamp: string | null, state: ThreadState): ImportedTurn[] {
  const parts: TurnPart[] = [];
  const texts: string[] = [];

  for (const thought of Array.isArray(record.thoughts) ? record.thoughts : []) {
    if (!isObject(thought)) continue;
    const subject = typeof thought.subject === "string" ? thought.subject.trim() : "";
    const description = typeof thought.description === "string" ? thought.description.trim() : "";
    if (!subject && !description) continue;
    parts.push({
      type: "thinking",
      text: [subject, description].filter(Boolean).join("\n\n"),
      ...(subject ? { subject } : {}),
      ...(typeof thought.timestamp === "string" ? { timestamp: thought.timestamp } : {}),
    });
  }

  const calls = (Array.isArray(record.toolCalls) ? record.toolCalls : []).filter(isObject);
  const callIds = calls.map((call, index) => (typeof call.id === "string" && call.id ? call.id : `${id}:call-${index}`));
  const rendered = renderParts(record.content, id, state, new Set(callIds));
  parts.push(...rendered.parts);
  texts.push(...rendered.texts);

  const resultParts: TurnPart[] = [];
  const resultTexts: string[] = [];
  let resultTime: string | null = null;
  calls.forEach((call, index) => {
    const callId = callIds[index]!;
    const name = typeof call.name === "string" && call.name ? call.name : "tool";
    const args = parseArguments(call.args);
    parts.push({
      type: "tool_call",
      id: callId,
      name,
      ...(args !== undefined ? { arguments: args } : {}),
      ...(typeof call.agentId === "string" ? { agentId: call.agentId } : {}),
    });
    texts.push(callLine(name, args));

    const result = toolResultOf(callId, name, call);
    if (!result || state.resultIds.has(callId)) return;
    state.resultIds.add(callId);
    resultParts.push(...result.parts);
    resultTexts.push(result.text ? `[${name}] ${result.text}` : `[${name}]`);
    const callTime = isoOrNull(call.timestamp);
    if (callTime && (!resultTime || callTime > resultTime)) resultTime = callTime;
  });

  const usage = usageOf(record.tokens);
  const metadata: JsonObject = {};
  if (isObject(record.tokens)) metadata.tokens = record.tokens;
  const assistant: ImportedTurn = {
    key: id,
    role: "assistant",
    content: texts.join("\n\n"),
    ...(parts.length > 0 ? { parts } : {}),
    timestamp,
    modelProvider: "google",
    modelName: typeof record.model === "string" && record.model ? record.model : null,
    usage,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  if (resultParts.length === 0) return [assistant];
  return [
    assistant,
    { key: `${id}:results`, role: "tool", content: resultTexts.join("\n\n"), parts: resultParts, timestamp: resultTime ?? timestamp },
  ];
}

/** A tool call's result as recorded inside the call, or null while the call had none. */
function toolResultOf(callId: string, name: string, call: JsonRecord): { parts: TurnPart[]; text: string } | null {
  const status = typeof call.status === "string" ? call.status : null;
  const hasResult = call.result !== undefined && call.result !== null && !(Array.isArray(call.result) && call.result.length === 0);
  const display = call.resultDisplay;
  const hasDisplay = (typeof display === "string" && display !== "") || isObject(display);
  if (!hasResult && !hasDisplay && !(status && FINISHED_STATUSES.has(status))) return null;

  const texts: string[] = [];
  const images: TurnPart[] = [];
  let errorResponse = false;
  for (const part of asPartList(call.result)) {
    if (typeof part === "string") {
      texts.push(part);
    } else if (isObject(part.functionResponse)) {
      const response = part.functionResponse.response;
      if (isObject(response) && response.error !== undefined) errorResponse = true;
      texts.push(responseText(response));
    } else if (typeof part.text === "string") {
      texts.push(part.text);
    } else {
      const media = mediaPart(part, "tool output");
      if (media) {
        if (media.part.type === "image") images.push(media.part);
        texts.push(media.text);
      }
    }
  }
  // Older records may lack `result`; the display text is what the user saw.
  if (texts.length === 0 && typeof display === "string" && display) texts.push(display);
  const fileDiff = isObject(display) && typeof display.fileDiff === "string" ? display.fileDiff : null;
  if (texts.length === 0 && fileDiff) texts.push(fileDiff);

  const text = texts.filter(Boolean).join("\n");
  // A cancelled call answers with an error response but is the user's choice, not a failure.
  const isError = status === "error" || (status === null && errorResponse);
  return {
    text,
    parts: [
      {
        type: "tool_result",
        toolCallId: callId,
        content: text,
        isError,
        name,
        ...(status ? { status } : {}),
        ...(fileDiff ? { fileDiff } : {}),
      },
      ...images,
    ],
  };
}
