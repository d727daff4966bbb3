import "server-only";
import { generateText } from "ai";
import { redactDeep } from "@/lib/domain/secrets/detect";
import type { CompactionTurn } from "@/lib/domain/compaction/types";
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import { formatModelSpec, PROVIDER_LABELS } from "@/lib/domain/compaction/model-spec";
import { LlmCallError, resolveModel, startCall } from "./provider";

/**
 * co-cli's summarisation agent (seeds/001 §4.4) on the Vercel AI SDK: a disposable call with no
 * tools (a summary must never run one), a minimal system prompt, the dropped turns as the
 * conversation and one user turn asking for the summary. It raises on failure; the caller decides
 * on a fallback (co-cli's static marker) or shows the error.
 * @internal exported for its tests
 */
export const SUMMARIZER_SYSTEM_PROMPT = "You are a conversation summariser. Return only the summary.";
/** @internal exported for its tests */
export const SUMMARIZE_PROMPT =
  "Summarize the following conversation in a concise form that preserves:\n" +
  "- Key decisions and outcomes\n" +
  "- File paths and tool names referenced\n" +
  "- Error resolutions and workarounds\n" +
  "- Any pending tasks or next steps\n\n" +
  "Be brief - this summary replaces the original messages to save context space.";
const DEFAULT_SUMMARIZER_TIMEOUT_MS = 120_000;

export type SummarizeRequest = {
  /** "<provider>:<model>"; blank uses the default compaction model (settings, then THREADLINE_COMPACTION_MODEL). */
  model: string;
  turns: CompactionTurn[];
  /** Appended to the prompt as "Focus on: ...". */
  instructions?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Sends the turns with their secrets (a thread's setting); by default every secret found is replaced by its redaction marker. */
  sendSecrets?: boolean;
};

export type SummarizeResult = {
  text: string;
  /** The model used, "<provider>:<model>". */
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number;
};

// ---------------------------------------------------------------------------------------------
// The conversation as messages

type Side = "user" | "assistant";
type Segment = { role: Side; text: string };
/**
 * A plain-text message; a valid ModelMessage for every provider.
 * @internal exported for its tests
 */
export type SummaryMessage = { role: Side; content: string };

/** Parts the rendering uses; a turn whose parts have none of these is rendered from `content`. */
const RENDERED_PARTS = new Set<TurnPart["type"]>(["text", "tool_call", "tool_result", "image", "compaction"]);

function jsonText(value: JsonValue | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  // Content blocks ([{type: "text", text}]) read as their text.
  if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && !Array.isArray(v) && typeof v.text === "string")) {
    return value.map((v) => (v as { text: string }).text).join("\n");
  }
  return JSON.stringify(value);
}

function toolResultText(name: string, content: string, isError = false): string {
  return `[${isError ? "tool error" : "tool result"} for ${name}]\n${content}`;
}

/** How a turn's own text reads on the side it lands on: system and tool turns are labelled user-side text. */
function labelled(turn: CompactionTurn, text: string): Segment {
  switch (turn.role) {
    case "user":
    case "assistant":
      return { role: turn.role, text };
    case "system":
      return { role: "user", text: `[system message]\n${text}` };
    case "tool":
      return { role: "user", text: toolResultText(turn.toolName ?? "a tool", text) };
  }
}

function renderTurn(turn: CompactionTurn, callNames: Map<string, string>): Segment[] {
  const segments: Segment[] = [];
  const parts = turn.parts?.some((p) => RENDERED_PARTS.has(p.type)) ? turn.parts : null;
  if (!parts) {
    if (turn.content.trim()) segments.push(labelled(turn, turn.content));
  } else {
    for (const part of parts) {
      switch (part.type) {
        case "text":
          if (part.text.trim()) segments.push(labelled(turn, part.text));
          break;
        case "thinking":
          break; // private reasoning: the summary keeps what was said and done
        case "tool_call":
          segments.push({
            role: "assistant",
            text: part.arguments === undefined ? `[called ${part.name}]` : `[called ${part.name} with ${JSON.stringify(part.arguments)}]`,
          });
          break;
        case "tool_result": {
          const name = callNames.get(part.toolCallId) ?? turn.toolName ?? "a tool";
          segments.push({ role: "user", text: toolResultText(name, jsonText(part.content), part.isError === true) });
          break;
        }
        case "image":
          segments.push(labelled(turn, `[image: ${part.path ?? part.alt ?? part.mediaType ?? "attached"}]`));
          break;
        case "compaction":
          if (turn.content.trim()) segments.push(labelled(turn, `[summary of earlier conversation]\n${turn.content}`));
          break;
      }
    }
  }
  // Paths the turn names but its text does not: the summary should keep them (§4.4 prompt).
  const rendered = segments.map((s) => s.text).join("\n");
  const extra = [
    ...turn.files.filter((f) => !rendered.includes(f)).map((f) => `[file: ${f}]`),
    ...turn.images.filter((f) => !rendered.includes(f)).map((f) => `[image: ${f}]`),
  ];
  if (extra.length > 0) segments.push({ role: turn.role === "assistant" ? "assistant" : "user", text: extra.join("\n") });
  return segments;
}

/**
 * The dropped turns, then the request, as messages every provider accepts: user first, roles
 * alternating (consecutive same-side text merged), the request last on the user side.
 * @internal exported for its tests
 */
export function buildSummaryMessages(turns: CompactionTurn[], instructions?: string): SummaryMessage[] {
  const callNames = new Map<string, string>();
  for (const turn of turns) {
    for (const part of turn.parts ?? []) if (part.type === "tool_call") callNames.set(part.id, part.name);
  }
  const focus = instructions?.trim();
  const request = focus ? `${SUMMARIZE_PROMPT}\n\nFocus on: ${focus}` : SUMMARIZE_PROMPT;

  const merged: Segment[] = [];
  const push = (segment: Segment) => {
    const last = merged.at(-1);
    if (last && last.role === segment.role) last.text += `\n\n${segment.text}`;
    else merged.push({ ...segment });
  };
  // A PAL turn's toolName is the tool its exchange ran under, said nowhere in its text; the
  // summary is checked for it (lostReferences), so it is named once at the start of each run.
  let runTool: string | null = null;
  for (const turn of turns) {
    const segments = renderTurn(turn, callNames);
    if (turn.role === "tool") {
      segments.forEach(push);
      continue;
    }
    const first = segments[0];
    if (first && turn.toolName && turn.toolName !== runTool) first.text = `[under tool ${turn.toolName}]\n${first.text}`;
    if (first) runTool = turn.toolName;
    segments.forEach(push);
  }
  if (merged[0]?.role === "assistant") merged.unshift({ role: "user", text: "[Conversation to summarise begins here.]" });
  const last = merged.at(-1);
  if (last?.role === "user") last.text += `\n\n---\n\n${request}`;
  else merged.push({ role: "user", text: request });
  return merged.map((m) => ({ role: m.role, content: m.text }));
}

// ---------------------------------------------------------------------------------------------

export async function summarizeWithLlm(request: SummarizeRequest): Promise<SummarizeResult> {
  const { turns, instructions } = request;
  if (turns.length === 0) throw new Error("summarizeWithLlm: no turns to summarise");
  if (request.signal?.aborted) throw new LlmCallError("cancelled", "Summarising was cancelled.");
  const resolved = await resolveModel({
    model: request.model,
    fallback: (config) => config.compactionModel,
    noModel: "No compaction model chosen: pick one, or set THREADLINE_COMPACTION_MODEL or the model in Settings.",
  });
  const call = startCall(resolved, {
    activity: "Summarising",
    signal: request.signal,
    timeoutMs: request.timeoutMs ?? DEFAULT_SUMMARIZER_TIMEOUT_MS,
  });
  const started = performance.now();
  try {
    const result = await generateText({
      model: resolved.model,
      system: SUMMARIZER_SYSTEM_PROMPT,
      // Nothing detected as a secret is sent to a model unless the thread says so.
      messages: request.sendSecrets ? buildSummaryMessages(turns, instructions) : redactDeep(buildSummaryMessages(turns, instructions)),
      maxRetries: 0,
      abortSignal: call.abortSignal,
    });
    const durationMs = Math.round(performance.now() - started);
    const text = result.text.trim();
    if (!text)
      throw new LlmCallError(
        "empty",
        `${PROVIDER_LABELS[resolved.spec.provider]} returned an empty summary (finish reason: ${result.finishReason}).`,
      );
    return {
      text,
      model: formatModelSpec(resolved.spec),
      inputTokens: result.usage.inputTokens ?? null,
      outputTokens: result.usage.outputTokens ?? null,
      durationMs,
    };
  } catch (error) {
    throw call.failure(error);
  } finally {
    call.close();
  }
}
