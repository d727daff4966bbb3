// Reading a Droid session's lines: the session_start header, then each record to a turn, to the
// thread's metadata, or to the skipped list. Pure.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isoUtc } from "../text";
import { ImportFormatError, isObject, type ImportedTurn, type NumberedLine, type SkippedEntry } from "../types";
import { messageTurn, type MessageContext } from "./messages";
import { defined, str, type Json } from "./values";

/** The newest session_start version this importer knows. */
const KNOWN_VERSION = 2;

/** Detection by content: the first line is Droid's session_start record. */
export function looksLikeFactoryDroidSession(firstLine: unknown, _fileName: string): boolean {
  if (!isObject(firstLine) || firstLine.type !== "session_start" || typeof firstLine.id !== "string" || firstLine.id === "") return false;
  return (
    typeof firstLine.cwd === "string" ||
    typeof firstLine.version === "number" ||
    typeof firstLine.owner === "string" ||
    typeof firstLine.sessionTitle === "string"
  );
}

/** A record's time: ISO text, or epoch milliseconds. */
function timeOf(value: JsonValue | undefined): string | null {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return new Date(value).toISOString();
  return isoUtc(value);
}

/** What reading the lines gave. */
export type DroidSession = {
  header: Json;
  turns: ImportedTurn[];
  skipped: SkippedEntry[];
  /** The first prompt a person typed (not copied from a fork's parent): it can name the thread. */
  firstPrompt: string | null;
  /** The session's own replies (not a fork's copies): the requests its settings' totals stand for. */
  ownReplies: number;
  /** A fork's last copied message, when the header names one; `forkPointMissing`: it never came. */
  forkedAt: string | null;
  forkPointMissing: boolean;
  todos: JsonValue | null;
  todoUpdates: number;
  sessionSettings: JsonObject[];
  endedAt: string | null;
};

/** The header, checked: a session_start record of a version this importer knows. */
function headerOf(value: unknown, name: string, line: number): Json {
  if (!looksLikeFactoryDroidSession(value, name))
    throw new ImportFormatError(
      `${name}: line ${line}: not a Factory Droid session: expected a {"type":"session_start","id":...} record first`,
      line,
    );
  const header = value as Json;
  const version = header.version;
  if (version !== undefined && !(typeof version === "number" && Number.isInteger(version) && version >= 1 && version <= KNOWN_VERSION))
    throw new ImportFormatError(
      `${name}: line ${line}: a Factory Droid session of version ${JSON.stringify(version)}; this importer reads versions 1 to ${KNOWN_VERSION}`,
      line,
    );
  return header;
}

/** The record reader: each record in file order, after the header. */
class Reader {
  readonly session: DroidSession;
  private readonly ctx: MessageContext;
  private readonly seen = new Set<string>();
  private lastAssistant: ImportedTurn | null = null;
  private copying: boolean;

  constructor(header: Json) {
    const forkedAt = str(header.parent) ? str(header.forkedAtMessageId) : null;
    this.session = {
      header,
      turns: [],
      skipped: [],
      firstPrompt: null,
      ownReplies: 0,
      forkedAt,
      forkPointMissing: false,
      todos: null,
      todoUpdates: 0,
      sessionSettings: [],
      endedAt: null,
    };
    this.ctx = { toolNames: new Map(), skipped: this.session.skipped };
    this.copying = forkedAt !== null;
  }

  finish(): DroidSession {
    this.session.forkPointMissing = this.session.forkedAt !== null && this.copying;
    return this.session;
  }

  add(record: Json, line: number): void {
    const { session } = this;
    const id = str(record.id);
    const key = id || `line:${line}`;
    const timestamp = timeOf(record.timestamp);
    if ((record.type === "message" || record.type === "compaction_state") && this.seen.has(key)) {
      session.skipped.push({ line, reason: `id ${key}: a duplicate; the first record with it is kept` });
      return;
    }
    switch (record.type) {
      case "message":
        return this.message(record, key, id, timestamp, line);
      case "compaction_state":
        this.seen.add(key);
        session.turns.push({
          key,
          role: "system",
          content: str(record.summaryText) || "Conversation compacted",
          timestamp,
          compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
          metadata: defined({
            summaryKind: str(record.summaryKind),
            summaryTokens: typeof record.summaryTokens === "number" ? record.summaryTokens : null,
            removedCount: typeof record.removedCount === "number" ? record.removedCount : null,
            anchorMessage: record.anchorMessage,
          }),
        });
        return;
      case "todo_state":
        session.todos = record.todos ?? null;
        session.todoUpdates++;
        return;
      case "agent_turn_outcome":
        if (this.lastAssistant)
          this.lastAssistant.metadata = {
            ...this.lastAssistant.metadata,
            turnOutcome: defined({ turnId: str(record.turnId), reason: str(record.reason), resultKind: str(record.resultKind) }),
          };
        return;
      case "session_settings": {
        const { type: _type, ...rest } = record;
        session.sessionSettings.push({ line, ...rest });
        return;
      }
      case "session_end":
        session.endedAt = timestamp ?? session.endedAt;
        return;
      case "session_start":
        session.skipped.push({ line, reason: "a second session_start record" });
        return;
      default:
        session.skipped.push({ line, reason: `type ${JSON.stringify(record.type ?? null)}: not a record this importer reads` });
    }
  }

  /** A message: its turn; a fork's copies of its parent's messages (up to forkedAtMessageId) marked. */
  private message(record: Json, key: string, id: string | null, timestamp: string | null, line: number): void {
    const { session } = this;
    const outcome = messageTurn(record, key, timestamp, this.ctx, line);
    if ("skip" in outcome) {
      session.skipped.push({ line, reason: outcome.skip });
      return;
    }
    const { turn } = outcome;
    if (this.copying) {
      turn.metadata = { ...turn.metadata, copiedFromParent: true };
      if (id === session.forkedAt) this.copying = false;
    } else {
      if (turn.role === "assistant") session.ownReplies++;
      session.firstPrompt ??= outcome.prompt;
    }
    if (turn.role === "assistant") this.lastAssistant = turn;
    this.seen.add(key);
    session.turns.push(turn);
  }
}

/** Reads a session's lines: throws ImportFormatError when the first is no session_start (or of an unknown version). */
export function readDroidSession(lines: NumberedLine[], name: string): DroidSession {
  const lastLine = lines.findLast((l) => l.text.trim() !== "")?.line;
  let reader: Reader | null = null;
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!reader)
        throw new ImportFormatError(
          `${name}: line ${line}: not valid JSON, and a Factory Droid session starts with its {"type":"session_start"} record`,
          line,
        );
      // Droid appends as it runs: a last line cut short is a session still being written.
      reader.session.skipped.push({
        line,
        reason: line === lastLine ? "truncated last line (the session may still be running)" : "not valid JSON",
      });
      continue;
    }
    if (!reader) reader = new Reader(headerOf(value, name, line));
    else if (!isObject(value)) reader.session.skipped.push({ line, reason: "not a JSON object" });
    else reader.add(value, line);
  }
  if (!reader) throw new ImportFormatError(`${name}: the file is empty: no Factory Droid session_start record`);
  return reader.finish();
}
