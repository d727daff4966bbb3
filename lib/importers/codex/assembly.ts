// The turns of a rollout as its records arrive: one explicit state object, with one method per
// thing a record can do to the conversation (a prompt, model output, a tool call or result, a
// compaction, a rollback). handlers.ts decides which record does what.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import type { ImportedTurn, ImportedUsage, SkippedEntry } from "../types";
import { callLine, collapse } from "../text";
import type { RolloutRecord } from "./records";
import { addUsage, TokenLedger, usageTotal } from "./usage";
import { defined, num, toolOutput } from "./values";
import { isRealPrompt } from "@/lib/domain/threads/title";

/** The VS Code extension wraps the typed request in IDE context; the title uses the request. */
const IDE_REQUEST_MARKER = "## My request for Codex:";

/** The assistant turn taking model output, and the duplicate events not yet matched to an item. */
type OpenAssistant = {
  turn: ImportedTurn;
  parts: TurnPart[];
  /** Parts rendered from agent_message / agent_reasoning events, waiting for their response item. */
  eventText: TurnPart[];
  eventThinking: TurnPart[];
  /** Items that came before their event (the event, when it comes, is then dropped). */
  itemsWithoutTextEvent: number;
  itemsWithoutThinkingEvent: number;
};

export type PartKind = "text" | "thinking";

export class RolloutAssembly {
  readonly turns: ImportedTurn[] = [];
  readonly initialContext: JsonObject = {};
  readonly ledger: TokenLedger;
  title: string | null = null;
  project: string | null;
  model: string | null;
  effort: string | null = null;
  turnId: string | null = null;
  taskRunning = false;
  /** The line of the latest prompt item (a user-role item, not injected context) since the last turn. */
  promptItemLine: number | null = null;
  private open: OpenAssistant | null = null;
  /** A model response item came since the last boundary: the request is still being written. */
  private requestOpen = false;
  private activitySincePrompt = false;
  /** The compaction turn made from a `compacted` record, until its context_compacted event. */
  private compactionAwaitingEvent: ImportedTurn | null = null;
  private readonly callNames = new Map<string, string>();

  constructor(
    readonly modelProvider: string | null,
    start: { project: string | null; model: string | null },
    readonly promptsFromItems: boolean,
    readonly skipped: SkippedEntry[],
    readonly warnings: string[],
  ) {
    this.project = start.project;
    this.model = start.model;
    this.ledger = new TokenLedger(skipped, warnings);
  }

  /** A boundary (prompt, tool output, task start or end, compaction): the next output starts a new turn. */
  closeAssistant(): void {
    this.open = null;
    this.requestOpen = false;
    this.promptItemLine = null;
  }

  /** Each sampling step writes a turn_context (0.3x and newer): the next item starts a new request. */
  endRequest(): void {
    this.requestOpen = false;
  }

  startTask(turnId: string | null): void {
    this.closeAssistant();
    this.taskRunning = true;
    this.activitySincePrompt = false;
    if (turnId !== null) this.turnId = turnId;
  }

  endTask(): void {
    this.closeAssistant();
    this.taskRunning = false;
  }

  /**
   * The assistant turn that takes the next model output. A response item (not a duplicate event)
   * also starts a request when none is being written.
   */
  assistant(record: RolloutRecord, fromItem = true): OpenAssistant {
    const open = this.open ?? this.openAssistant(record);
    if (fromItem && !this.requestOpen) {
      this.requestOpen = true;
      this.ledger.startRequest(open.turn);
    }
    this.activitySincePrompt = true;
    return open;
  }

  private openAssistant(record: RolloutRecord): OpenAssistant {
    const turn: ImportedTurn = {
      key: String(record.line),
      role: "assistant",
      content: "",
      parts: [],
      timestamp: record.timestamp,
      modelProvider: this.modelProvider,
      modelName: this.model,
      metadata: defined({ turnId: this.turnId, effort: this.effort }),
    };
    this.turns.push(turn);
    this.open = { turn, parts: turn.parts!, eventText: [], eventThinking: [], itemsWithoutTextEvent: 0, itemsWithoutThinkingEvent: 0 };
    this.promptItemLine = null;
    return this.open;
  }

  /** An item's part replaces the matching event's part (same place), or waits for its event. */
  addItemPart(target: OpenAssistant, part: TurnPart, kind: PartKind): void {
    const waiting = kind === "text" ? target.eventText : target.eventThinking;
    const eventPart = waiting.shift();
    if (eventPart) {
      target.parts[target.parts.indexOf(eventPart)] = part;
      return;
    }
    target.parts.push(part);
    if (kind === "text") target.itemsWithoutTextEvent++;
    else target.itemsWithoutThinkingEvent++;
  }

  /** An event's part, unless its item came first; else it waits for its item. */
  addEventPart(target: OpenAssistant, part: TurnPart, kind: PartKind): void {
    if (kind === "text" && target.itemsWithoutTextEvent > 0) return void target.itemsWithoutTextEvent--;
    if (kind === "thinking" && target.itemsWithoutThinkingEvent > 0) return void target.itemsWithoutThinkingEvent--;
    target.parts.push(part);
    (kind === "text" ? target.eventText : target.eventThinking).push(part);
  }

  addUserTurn(record: RolloutRecord, text: string, parts: TurnPart[], images: string[], key = String(record.line)): void {
    this.closeAssistant();
    const imageCount = parts.filter((p) => p.type === "image").length;
    const content = [text, ...Array.from({ length: imageCount }, () => "[image]")].filter(Boolean).join("\n\n");
    this.turns.push({
      key,
      role: "user",
      content,
      ...(imageCount > 0 ? { parts: [...(text ? [{ type: "text", text } as TurnPart] : []), ...parts] } : {}),
      ...(images.length > 0 ? { images } : {}),
      timestamp: record.timestamp,
      ...(this.turnId ? { metadata: { turnId: this.turnId } } : {}),
    });
    this.activitySincePrompt = false;
    const request = text.includes(IDE_REQUEST_MARKER) ? text.slice(text.indexOf(IDE_REQUEST_MARKER) + IDE_REQUEST_MARKER.length) : text;
    if (this.title === null && isRealPrompt(request)) this.title = collapse(request) || null;
  }

  addCall(record: RolloutRecord, id: string, name: string, args: JsonValue | undefined, extra: JsonObject = {}): void {
    this.callNames.set(id, name);
    this.assistant(record).parts.push({ type: "tool_call", id, name, ...(args !== undefined ? { arguments: args } : {}), ...extra });
  }

  addToolResult(record: RolloutRecord, callId: string, output: JsonValue | undefined): void {
    this.closeAssistant();
    const result = toolOutput(output);
    const name = this.callNames.get(callId);
    const parts: TurnPart[] = [
      {
        type: "tool_result",
        toolCallId: callId,
        content: result.text,
        ...(result.failed ? { isError: true } : {}),
        ...(result.exitCode !== null ? { exitCode: result.exitCode } : {}),
        ...(result.durationSeconds !== null ? { durationSeconds: result.durationSeconds } : {}),
        ...(name ? { name } : {}),
      },
      ...result.images,
    ];
    this.turns.push({ key: String(record.line), role: "tool", content: result.text, parts, timestamp: record.timestamp });
    this.activitySincePrompt = true;
  }

  /** A `compacted` record (fromEvent false) or a `context_compacted` event: one marker turn for the pair. */
  addCompaction(record: RolloutRecord, message: string | null, fromEvent: boolean): void {
    this.closeAssistant();
    const lastTurn = this.turns[this.turns.length - 1];
    if (fromEvent) {
      const made = this.compactionAwaitingEvent;
      this.compactionAwaitingEvent = null;
      if (made && made === lastTurn) return; // the `compacted` record already made the turn
    } else if (lastTurn?.compaction && lastTurn.metadata?.fromEvent === true) {
      // The event came first (no record yet): the record fills in that turn.
      lastTurn.content = message || "Context compacted (remote summary, encrypted)";
      lastTurn.metadata = this.compactionMetadata(record.payload);
      return;
    }
    // Mid-task (after model or tool output, before task_complete) only auto-compaction happens.
    const trigger = this.taskRunning && this.activitySincePrompt ? "auto" : null;
    const turn: ImportedTurn = {
      key: String(record.line),
      role: "system",
      content: fromEvent ? "Context compacted" : message || "Context compacted (remote summary, encrypted)",
      timestamp: record.timestamp,
      compaction: { trigger, tokensBefore: this.ledger.lastContextTokens, tokensAfter: null },
      metadata: fromEvent ? { fromEvent: true } : this.compactionMetadata(record.payload),
    };
    this.turns.push(turn);
    this.compactionAwaitingEvent = fromEvent ? null : turn;
  }

  private compactionMetadata(payload: Record<string, JsonValue>): JsonObject {
    return defined({
      remote: payload.message === "",
      replacementHistoryItems: Array.isArray(payload.replacement_history) ? payload.replacement_history.length : undefined,
      cumulativeTotalTokens: this.ledger.lastCumulativeTokens,
    });
  }

  /** `thread_rolled_back {num_turns}`: the last N user turns go, and everything after each. */
  rollBack(record: RolloutRecord): void {
    const count = num(record.payload.num_turns);
    if (count === null || count < 1)
      return void this.skipped.push({ line: record.line, reason: "thread_rolled_back num_turns: not a positive number" });
    this.closeAssistant();
    const userIndexes = this.turns.flatMap((t, i) => (t.role === "user" ? [i] : []));
    const cutAt = userIndexes.length >= count ? userIndexes[userIndexes.length - count]! : userIndexes[0];
    if (cutAt === undefined) {
      this.ledger.rollBack([]);
      this.warnings.push(`line ${record.line}: thread_rolled_back by ${count} turn(s), but there is no user turn to drop`);
      return;
    }
    const dropped = this.turns.splice(cutAt);
    this.ledger.rollBack(dropped);
    this.warnings.push(
      `line ${record.line}: thread_rolled_back dropped the last ${Math.min(count, userIndexes.length)} user turn(s) and what followed (${dropped.length} turns, from line ${dropped[0]!.key})` +
        (userIndexes.length < count ? `; ${count} were asked for` : ""),
    );
  }

  /**
   * The turns to keep. An assistant turn with nothing to show (an empty reasoning item alone) is
   * dropped; its usage moves to the assistant turn before it (or after it), so no tokens are lost.
   */
  finishedTurns(): ImportedTurn[] {
    const kept: ImportedTurn[] = [];
    let orphanUsage: ImportedUsage | null = null;
    for (const turn of this.turns) {
      if (turn.role === "assistant" && (turn.parts?.length ?? 0) === 0) {
        if (turn.usage) {
          const previous = [...kept].reverse().find((t) => t.role === "assistant");
          if (previous) previous.usage = addUsage(previous.usage, turn.usage);
          else orphanUsage = addUsage(orphanUsage, turn.usage);
        }
        continue;
      }
      if (turn.role === "assistant" && orphanUsage) {
        turn.usage = addUsage(turn.usage, orphanUsage);
        orphanUsage = null;
      }
      kept.push(turn);
    }
    for (const turn of kept) if (turn.role === "assistant") turn.content = assistantContent(turn.parts ?? []);
    this.placeLeftoverUsage(kept, addUsage(orphanUsage, this.ledger.pending ?? {}));
    return kept;
  }

  private placeLeftoverUsage(kept: ImportedTurn[], leftover: ImportedUsage): void {
    if (usageTotal(leftover) <= 0) return;
    const lastAssistant = [...kept].reverse().find((t) => t.role === "assistant");
    if (lastAssistant) lastAssistant.usage = addUsage(lastAssistant.usage, leftover);
    else this.warnings.push(`${usageTotal(leftover)} tokens of usage came with no assistant turn to carry them`);
  }
}

/** Readable text of an assistant turn: its text and tool calls; thinking only when that is all. */
function assistantContent(parts: TurnPart[]): string {
  const shown = parts.flatMap((part) => {
    if (part.type === "text") return [part.text];
    if (part.type === "tool_call") return [callLine(part.name, part.arguments)];
    if (part.type === "image") return ["[image]"];
    return [];
  });
  if (shown.length > 0) return shown.join("\n\n");
  return parts.flatMap((part) => (part.type === "thinking" ? [part.text] : [])).join("\n\n");
}
