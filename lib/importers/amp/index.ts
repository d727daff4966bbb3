/**
 * Amp threads (`~/.local/share/amp/threads/T-<id>.json`, one JSON document per thread), docs/formats.md
 * §13, "Amp". Pure: the caller supplies the parsed document.
 *
 * Amp is closed source: the format below is what public readers of these files parse (agentsview,
 * ccusage, tokscale, clast, cross_agent_session_resumer, thread-manager-for-amp; cited in the docs)
 * and what three real `amp threads export` documents hold (fixtures/real/amp):
 * - The document: `{v, id: "T-…", created (ms), title?, agentMode?, env.initial {trees [{uri,
 *   displayName, repository}], workingDirectory?, cwd?, platform}, meta {...}, messages [...],
 *   relationships? [{type: "handoff", role, threadID, messageIndex, createdAt, comment?}],
 *   usageLedger? {events [...]}, updatedAt?}`. `v` counts the thread's revisions (it grows as the
 *   thread is written); it is no schema version, so it cannot say that a file is newer than this
 *   reader. A document without a `T-` id or without a `messages` list is refused.
 * - Messages `{role: user | assistant | info, messageId, protocolMessageID?, content [blocks],
 *   meta {sentAt (ms)}?, usage?, state?}`. Blocks: `text` (`hidden`: context Amp added),
 *   `thinking` (empty with `openAIReasoning` when encrypted), `tool_use {id, name, input}`,
 *   `tool_result {toolUseID, run {status, result | error | progress}}` in the next user message,
 *   `image`, and on `info` messages `summary` (a compaction: the text, or the thread it went to).
 * - Usage per assistant message: `{model, timestamp, inputTokens, outputTokens,
 *   cacheCreationInputTokens, cacheReadInputTokens, totalInputTokens, maxInputTokens, credits?}`.
 *   Old threads carry a `usageLedger` of events `{model, tokens {input, output}, credits,
 *   toMessageId}` instead.
 *
 * What it becomes: one thread keyed by the thread id (turn keys: messageId, else
 * protocolMessageID, else the position). A user message holding tool results is a tool turn whose
 * tool_result parts name their calls; an info summary is a compaction marker. A handoff thread (a
 * relationship with role "child") continues its parent thread. Each reply's usage is kept once, as
 * reported (for gpt-* models the cache creation Amp reports is uncached input, see usageOf).
 */
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { collapse } from "../text";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ParsedSource, type SkippedEntry } from "../types";
import { messageTurn, type MessageContext } from "./messages";
import { defined, isoOfMs, isoOfString, num, obj, pathOfUri, str, type Json } from "./values";

/** Amp's thread ids: `T-` and a UUID (older ones) or a longer sortable id. */
const THREAD_ID = /^T-[0-9A-Za-z]/;

/** Detection by content: one JSON object with a `T-…` id and a messages list. */
export function looksLikeAmpThread(doc: unknown, fileName: string): boolean {
  return (
    !/\.jsonl$/i.test(fileName) && isObject(doc) && typeof doc.id === "string" && THREAD_ID.test(doc.id) && Array.isArray(doc.messages)
  );
}

function kindOf(value: unknown): string {
  return Array.isArray(value) ? "a list" : value === null ? "null" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The folder the thread ran in: env.initial.workingDirectory, else cwd, else its first workspace tree. */
function projectOf(env: Json | null): string | null {
  const initial = obj(env?.initial);
  if (!initial) return null;
  const trees = Array.isArray(initial.trees) ? initial.trees : [];
  const firstTree = trees.find(isObject);
  return pathOfUri(initial.workingDirectory) ?? pathOfUri(initial.cwd) ?? pathOfUri(firstTree?.uri);
}

/** What the thread's environment says beyond its folder, without identifiers of the machine or the user. */
function environmentOf(env: Json | null): JsonObject | null {
  const initial = obj(env?.initial);
  if (!initial) return null;
  const platform = obj(initial.platform);
  const trees = (Array.isArray(initial.trees) ? initial.trees : []).filter(isObject).map((tree) => {
    const repository = obj(tree.repository);
    return defined({
      displayName: str(tree.displayName),
      uri: str(tree.uri),
      repository: repository ? defined({ url: str(repository.url), ref: str(repository.ref), sha: str(repository.sha) }) : null,
    });
  });
  return defined({
    trees: trees.length > 0 ? trees : null,
    platform: platform
      ? defined({
          os: str(platform.os),
          client: str(platform.client),
          clientType: str(platform.clientType),
          clientVersion: str(platform.clientVersion),
        })
      : null,
    tags: Array.isArray(initial.tags) ? initial.tags.filter((t): t is string => typeof t === "string") : null,
  });
}

type Handoffs = { parent: string | null; parentComment: string | null; children: JsonObject[] };

/**
 * Handoff links: a relationship with role "child" says this thread was handed off from `threadID`
 * (its parent); one with role "parent" names a thread this one handed off to (thread-manager-for-amp
 * reads them so).
 */
function handoffsOf(relationships: JsonValue | undefined, self: string): Handoffs {
  const out: Handoffs = { parent: null, parentComment: null, children: [] };
  for (const rel of Array.isArray(relationships) ? relationships : []) {
    if (!isObject(rel) || rel.type !== "handoff" || typeof rel.threadID !== "string" || rel.threadID === self) continue;
    if (rel.role === "child" && out.parent === null) {
      out.parent = rel.threadID;
      out.parentComment = str(rel.comment);
    } else if (rel.role === "parent") {
      out.children.push(defined({ threadID: rel.threadID, messageIndex: num(rel.messageIndex), comment: str(rel.comment) }));
    }
  }
  return out;
}

/** The legacy usage ledger's events by the message they paid for, and their credits in all. */
function ledgerOf(usageLedger: JsonValue | undefined): { byMessage: Map<string, Json[]>; events: number; credits: number | null } {
  const byMessage = new Map<string, Json[]>();
  let events = 0;
  let credits: number | null = null;
  const list = obj(usageLedger)?.events;
  for (const event of Array.isArray(list) ? list : []) {
    if (!isObject(event)) continue;
    events++;
    const c = num(event.credits);
    if (c !== null) credits = (credits ?? 0) + c;
    const to = event.toMessageId;
    if (typeof to === "number" || typeof to === "string") {
      const key = String(to);
      const known = byMessage.get(key);
      if (known) known.push(event);
      else byMessage.set(key, [event]);
    }
  }
  return { byMessage, events, credits };
}

/** A message's key in its thread: its messageId, else its protocolMessageID, else its position. */
function keyOf(message: Json, index: number): string {
  if (typeof message.messageId === "number" || (typeof message.messageId === "string" && message.messageId !== ""))
    return String(message.messageId);
  return str(message.protocolMessageID) || `#${index}`;
}

export function parseAmpThread(doc: unknown, source: { name: string }): ParsedSource {
  if (!isObject(doc))
    throw new ImportFormatError(
      `${source.name}: not an Amp thread: expected a JSON object with an id "T-…" and a messages list, found ${kindOf(doc)}`,
    );
  if (typeof doc.id !== "string" || !THREAD_ID.test(doc.id))
    throw new ImportFormatError(
      `${source.name}: not an Amp thread: expected an id "T-…", found ${typeof doc.id === "string" ? JSON.stringify(doc.id) : kindOf(doc.id)}`,
    );
  if (!Array.isArray(doc.messages))
    throw new ImportFormatError(`${source.name}: not an Amp thread: expected a messages list, found ${kindOf(doc.messages)}`);
  const id = doc.id;
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const ledger = ledgerOf(doc.usageLedger);
  const ctx: MessageContext = { toolNames: new Map(), ledger: ledger.byMessage, skipped };
  const turns: ImportedTurn[] = [];
  const seen = new Set<string>();
  let lastTime: string | null = null;
  let firstPrompt: string | null = null;

  doc.messages.forEach((message: JsonValue, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message)) {
      skipped.push({ path, reason: "not a JSON object" });
      return;
    }
    const key = keyOf(message, index);
    if (seen.has(key)) {
      skipped.push({ path, reason: `message ${key}: a duplicate; the first message with it is kept` });
      return;
    }
    // A message's own time: when it was sent (user), written (createdAt); a reply's usage has its own.
    const own = isoOfMs(obj(message.meta)?.sentAt) ?? isoOfString(message.createdAt);
    const outcome = messageTurn(message, key, own ?? lastTime, ctx, path);
    if ("skip" in outcome) {
      skipped.push({ path, reason: outcome.skip });
      return;
    }
    seen.add(key);
    firstPrompt ??= outcome.prompt ?? null;
    turns.push(outcome.turn);
    if (outcome.turn.timestamp) lastTime = outcome.turn.timestamp;
  });

  const handoffs = handoffsOf(doc.relationships, id);
  const env = obj(doc.env);
  const meta = obj(doc.meta);
  const title = str(doc.title)?.trim() || null;
  const created = isoOfMs(doc.created);
  const times = turns.map((t) => t.timestamp).filter((t): t is string => !!t);
  const updated = isoOfString(doc.updatedAt);
  const thread: ImportedThread = {
    key: id,
    title: title ?? (firstPrompt ? collapse(firstPrompt) || null : null),
    toolName: "amp",
    project: projectOf(env),
    createdAt: created ?? times.reduce<string | null>((a, t) => (a === null || t < a ? t : a), null),
    lastUpdatedAt: [updated, ...times].reduce<string | null>((a, t) => (t && (a === null || t > a) ? t : a), created),
    ...(handoffs.parent ? { parentKey: handoffs.parent, relation: { kind: "continuation" as const } } : {}),
    metadata: defined({
      threadId: id,
      revision: num(doc.v),
      agentMode: str(doc.agentMode) ?? str(meta?.agentMode),
      executorType: str(meta?.executorType),
      visibility: str(doc.visibility) ?? str(meta?.visibility),
      archived: doc.archived === true ? true : null,
      environment: environmentOf(env),
      handoffFrom: handoffs.parent,
      handoffComment: handoffs.parentComment,
      handoffTo: handoffs.children.length > 0 ? handoffs.children : null,
      usageLedgerEvents: ledger.events > 0 ? ledger.events : null,
      usageLedgerCredits: ledger.credits,
      lastKnownAgentState: str(obj(meta?.lastKnownAgentState)?.state),
    }),
    turns,
  };
  return { format: "amp", threads: [thread], skipped, warnings };
}
