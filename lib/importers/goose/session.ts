// One Goose session (its sessions row or legacy metadata line, and its messages in order) as a thread.
import type { JsonObject } from "@/lib/domain/types";
import { USAGE_IN_SESSION_TOTALS } from "@/lib/domain/usage/usage";
import { collapse, isoUtc } from "../text";
import type { ImportedTurn, ImportedThread } from "../types";
import { messageTurns, visibilityOf, type GooseMessage } from "./content";
import { accumulatedMetadata, inferenceOf, lastUsageOf, messageUsage, noUsage, remainderTotals } from "./usage";
import { defined, isoFromSeconds, obj, str, text, type Json } from "./values";

/** The text Goose gives the message it appends after a compaction summary (context_mgmt/mod.rs). */
const CONTINUATION = "Your context was compacted";
const MANUAL_CONTINUATION = "Your context was compacted at the user's request";

function messageText(message: GooseMessage): string {
  return message.content
    .map((block) => (obj(block)?.type === "text" ? (str(obj(block)!.text) ?? "") : ""))
    .filter((t) => t !== "")
    .join("\n\n");
}

const agentOnly = (m: GooseMessage | undefined) => !!m && m.metadata.userVisible === false && m.metadata.agentVisible !== false;
const hiddenFromAgent = (m: GooseMessage | undefined) => !!m && m.metadata.agentVisible === false;
const isContinuation = (m: GooseMessage | undefined) =>
  !!m && m.role === "assistant" && agentOnly(m) && messageText(m).startsWith(CONTINUATION);

/**
 * A compaction as goose writes it: the messages before it made invisible to the agent, then the
 * summary (a user message the agent sees and the user does not), usually followed by an
 * agent-only assistant message saying the context was compacted.
 */
function isCompactionSummary(messages: GooseMessage[], index: number): boolean {
  const message = messages[index]!;
  if (!agentOnly(message) || !hiddenFromAgent(messages[index - 1]) || isContinuation(message)) return false;
  return message.role === "user" || isContinuation(messages[index + 1]);
}

function compactionTurn(summary: GooseMessage, continuation: GooseMessage | null): ImportedTurn {
  const said = continuation ? messageText(continuation) : "";
  const trigger = continuation ? (said.startsWith(MANUAL_CONTINUATION) ? "manual" : "auto") : null;
  const metadata: JsonObject = {
    ...(summary.messageId ? { messageId: summary.messageId } : {}),
    ...visibilityOf(summary.metadata),
    summaryRole: summary.role,
  };
  if (continuation) {
    if (continuation.messageId) metadata.continuationMessageId = continuation.messageId;
    metadata.continuation = said;
  }
  return {
    key: summary.key,
    role: "system",
    content: messageText(summary),
    parts: [{ type: "compaction", trigger }],
    timestamp: isoFromSeconds(summary.created),
    compaction: { trigger, tokensBefore: null, tokensAfter: null },
    metadata,
  };
}

/** The names of the extensions the session had enabled (never their configuration, which may hold secrets in `envs`). */
function extensionNames(data: Json | null): string[] {
  const names: string[] = [];
  for (const [key, state] of Object.entries(data ?? {})) {
    if (!key.startsWith("enabled_extensions")) continue;
    const list = obj(state)?.extensions;
    for (const extension of Array.isArray(list) ? list : []) {
      const name = str(obj(extension)?.name);
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

function modelConfigMetadata(config: Json | null): JsonObject | null {
  if (!config) return null;
  const out = defined({
    modelName: str(config.model_name),
    contextLimit: config.context_limit,
    temperature: config.temperature,
    maxTokens: config.max_tokens,
    toolshim: config.toolshim,
    toolshimModel: config.toolshim_model,
  });
  return Object.keys(out).length > 0 ? out : null;
}

type SessionOrigin = { from: "sessions.db"; schemaVersion: number; linkedParent?: string | null } | { from: "jsonl" };

/**
 * The thread of one session. `session` has goose's column names (the sessions row, or the legacy
 * metadata line, which uses the same names); `messages` are in goose's order.
 */
export function sessionThread(session: Json, messages: GooseMessage[], origin: SessionOrigin, warnings: string[]): ImportedThread {
  const id = str(session.id)!;
  const modelConfig = obj(session.model_config);
  const sessionProvider = text(session.provider_name);
  const sessionModel = text(modelConfig?.model_name);
  const turns: ImportedTurn[] = [];
  const covered = noUsage();
  const unknown = new Set<string>();
  let lastModel: string | null = null;
  let firstUserText: string | null = null;

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (isCompactionSummary(messages, index)) {
      const continuation = isContinuation(messages[index + 1]) ? messages[index + 1]! : null;
      turns.push(compactionTurn(message, continuation));
      if (continuation) index += 1;
      continue;
    }
    const { turns: produced, main, unknownTypes } = messageTurns(message);
    for (const type of unknownTypes) unknown.add(type);
    if (main && main.role === "assistant") {
      const inference = inferenceOf(message.metadata);
      main.modelProvider = inference?.provider ?? sessionProvider;
      main.modelName = inference?.model ?? sessionModel;
      if (inference?.model) lastModel = inference.model;
      const usage = messageUsage(message.metadata, warnings, `message ${message.key}`);
      if (usage) {
        main.usage = usage.usage;
        if (Object.keys(usage.details).length > 0) main.metadata = { ...main.metadata, usage: usage.details };
        covered.input += usage.raw.input;
        covered.output += usage.raw.output;
        covered.cacheRead += usage.raw.cacheRead;
        covered.cacheWrite += usage.raw.cacheWrite;
        covered.cost += usage.raw.cost;
      }
      if (obj(message.metadata.inference)) main.metadata = { ...main.metadata, inference: message.metadata.inference! };
    }
    if (main && main.role === "user" && firstUserText === null && message.metadata.userVisible !== false && main.content.trim())
      firstUserText = main.content;
    turns.push(...produced);
  }
  if (unknown.size > 0)
    warnings.push(`content blocks of types this reader does not know, kept by name in their turns' metadata: ${[...unknown].join(", ")}`);

  const updatedAt = isoUtc(session.updated_at) ?? (turns.length > 0 ? (turns.at(-1)!.timestamp ?? null) : null);
  const createdAt = isoUtc(session.created_at) ?? turns.find((t) => t.timestamp)?.timestamp ?? null;
  const sessionTotals = remainderTotals(session, covered, sessionModel ?? lastModel, updatedAt, warnings);
  if (sessionTotals)
    // What the session's totals count beyond the messages' own usage covers these replies: none is estimated.
    for (const turn of turns)
      if (turn.role === "assistant" && !turn.usage) turn.metadata = { ...turn.metadata, ...USAGE_IN_SESSION_TOTALS };

  const recipe = obj(session.recipe);
  const extensions = extensionNames(obj(session.extension_data));
  const parent = text(session.parent_session_id) ?? (origin.from === "sessions.db" ? (origin.linkedParent ?? null) : null);
  const metadata: JsonObject = defined({
    sessionId: id,
    source: origin.from,
    schemaVersion: origin.from === "sessions.db" ? origin.schemaVersion : undefined,
    sessionType: str(session.session_type),
    name: str(session.name) || undefined,
    description: str(session.description) || undefined,
    userSetName: typeof session.user_set_name === "number" ? session.user_set_name !== 0 : (session.user_set_name ?? undefined),
    scheduleId: str(session.schedule_id),
    providerName: sessionProvider,
    modelConfig: modelConfigMetadata(modelConfig),
    gooseMode: str(session.goose_mode),
    archivedAt: isoUtc(session.archived_at) ?? str(session.archived_at),
    projectId: str(session.project_id),
    parentSessionId: text(session.parent_session_id),
    parentDelegation: obj(session.parent_delegation),
    recipe: recipe ? defined({ title: str(recipe.title), description: str(recipe.description), version: str(recipe.version) }) : undefined,
    extensions: extensions.length > 0 ? extensions : undefined,
    lastUsage: lastUsageOf(session),
    accumulated: accumulatedMetadata(session),
    messageCount: typeof session.message_count === "number" ? session.message_count : undefined,
    sessionTotals,
  });

  return {
    key: id,
    title: text(session.name) ?? text(session.description) ?? (firstUserText ? collapse(firstUserText) : null),
    toolName: "goose",
    project: text(session.working_dir),
    createdAt,
    lastUpdatedAt: updatedAt,
    ...(parent && parent !== id ? { parentKey: parent, relation: { kind: "subagent" as const, toolCallId: null, agentId: id } } : {}),
    metadata,
    turns,
  };
}
