// One Cursor composer (a conversation of the side panel) as a thread. Pure.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isRealPrompt, titleFromContent } from "@/lib/domain/threads/title";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type SkippedEntry } from "../types";
import { assistantTurns, checkBubbleVersion, userTurn, type BubbleContext } from "./bubbles";
import { isoFromMs, NEWEST_COMPOSER_VERSION, obj, pathOfUri, str, type CursorComposerDocument } from "./document";

/** The composer's fields kept in the thread's metadata (when set). */
const THREAD_FIELDS = [
  "_v",
  "subtitle",
  "status",
  "unifiedMode",
  "forceMode",
  "isAgentic",
  "agentBackend",
  "modelConfig",
  "usageData",
  "contextTokensUsed",
  "contextTokenLimit",
  "contextUsagePercent",
  "createdOnBranch",
  "totalLinesAdded",
  "totalLinesRemoved",
  "filesChangedCount",
  "subComposerIds",
  "subagentComposerIds",
  "subagentInfo",
  "isBestOfNParent",
  "isBestOfNSubcomposer",
  "isArchived",
  "isSpec",
  "latestChatGenerationUUID",
] as const;

function setFields(source: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const field of fields) {
    const value = source[field];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (isObject(value) && Object.keys(value).length === 0) continue;
    out[field] = value;
  }
  return out;
}

/** The workspace folder a composer ran in: its header's (or its own) workspaceIdentifier, else its workspaceUri. */
function workspaceFolder(composer: JsonObject, head: JsonObject | null): string | null {
  for (const source of [head, composer]) {
    const uri = obj(obj(source?.workspaceIdentifier)?.uri);
    const folder = str(uri?.fsPath) ?? str(uri?.path) ?? (str(uri?.external) ? pathOfUri(uri!.external as string) : null);
    if (folder) return folder;
  }
  const legacy = str(composer.workspaceUri);
  return legacy ? pathOfUri(legacy) : null;
}

/** The bubbles in conversation order: the headers' (each looked up in the rows, then in conversationMap), or the inline `conversation`. */
function orderedBubbles(
  doc: CursorComposerDocument,
  skipped: SkippedEntry[],
): { bubbles: { bubble: JsonObject; path: string; type: JsonValue | undefined }[]; missing: number } {
  const { composer, composerId } = doc;
  const headers = Array.isArray(composer.fullConversationHeadersOnly) ? composer.fullConversationHeadersOnly : null;
  const map = obj(composer.conversationMap);
  const bubbles: { bubble: JsonObject; path: string; type: JsonValue | undefined }[] = [];
  let missing = 0;
  if (headers && headers.length > 0) {
    headers.forEach((header, index) => {
      const path = `${composerId}.fullConversationHeadersOnly[${index}]`;
      const id = isObject(header) ? str(header.bubbleId) : null;
      if (!id) {
        skipped.push({ path, reason: "header without a bubbleId" });
        return;
      }
      const bubble = doc.bubbles[id] ?? map?.[id];
      if (bubble === undefined) {
        // Cursor lists bubbles before writing them, and folds some into the one before.
        missing++;
        return;
      }
      if (!isObject(bubble)) {
        skipped.push({ path: `${composerId}/bubbleId:${id}`, reason: "bubble that is not a JSON object" });
        return;
      }
      bubbles.push({ bubble, path: `${composerId}/bubbleId:${id}`, type: bubble.type ?? (header as JsonObject).type });
    });
    return { bubbles, missing };
  }
  const inline = Array.isArray(composer.conversation) ? composer.conversation : [];
  inline.forEach((bubble, index) => {
    const path = `${composerId}.conversation[${index}]`;
    if (!isObject(bubble)) skipped.push({ path, reason: "conversation entry that is not a JSON object" });
    else bubbles.push({ bubble, path, type: bubble.type });
  });
  return { bubbles, missing };
}

/**
 * The latest of the composer's update times and its turns' times: Cursor's lastUpdatedAt can be
 * older than the answer it was still writing (the real 3.6 dump: 33 seconds).
 */
function latest(times: (JsonValue | undefined)[], turns: ImportedTurn[]): string | null {
  let best: string | null = null;
  for (const at of [...times.map((t) => isoFromMs(t)), ...turns.map((t) => t.timestamp ?? null)]) if (at && (!best || at > best)) best = at;
  return best;
}

/** Refuses a composer of a newer version than the ones read. */
function checkComposerVersion(composer: JsonObject, where: string): void {
  const v = composer._v;
  if (typeof v === "number" && v > NEWEST_COMPOSER_VERSION)
    throw new ImportFormatError(
      `${where}: a Cursor composer of version _v ${v}, newer than the versions this importer reads (composerData up to _v ${NEWEST_COMPOSER_VERSION})`,
    );
}

/** Sub-agents and Best-of-N runs name their parent composer in subagentInfo (or, in some versions, at the top). */
function parentOf(composer: JsonObject, key: string): string | null {
  const parent = str(obj(composer.subagentInfo)?.parentComposerId) ?? str(composer.parentComposerId);
  return parent && parent !== key ? parent : null;
}

/** One composer to a thread (its turns in conversation order); null when it holds no message. */
export function composerThread(doc: CursorComposerDocument, source: { name: string }, skipped: SkippedEntry[]): ImportedThread | null {
  const { composer, composerId: key } = doc;
  checkComposerVersion(composer, source.name);
  const head = doc.head ?? null;
  const { bubbles, missing } = orderedBubbles(doc, skipped);
  const context: BubbleContext = { composerModel: str(obj(composer.modelConfig)?.modelName), requestModel: null };
  const turns: ImportedTurn[] = [];
  let empty = 0;
  for (const { bubble, path, type } of bubbles) {
    checkBubbleVersion(bubble, `${source.name} ${path}`);
    const bubbleKey = str(bubble.bubbleId) ?? path.slice(path.lastIndexOf(":") + 1);
    if (type === 1) {
      turns.push(userTurn(bubble, bubbleKey, context));
    } else if (type === 2) {
      const { turn, result } = assistantTurns(bubble, bubbleKey, context);
      if (!turn) empty++;
      if (turn) turns.push(turn);
      if (result) turns.push(result);
    } else {
      skipped.push({ path, reason: `bubble of unknown type ${JSON.stringify(type ?? null)} (1 is a prompt, 2 an answer)` });
    }
  }
  if (turns.length === 0) return null;
  const firstPrompt = turns.find((turn) => turn.role === "user" && isRealPrompt(turn.content));
  const name = str(composer.name) ?? str(head?.name);
  const parentKey = parentOf(composer, key);
  const bestOfN = composer.isBestOfNSubcomposer === true;
  const metadata: JsonObject = { composerId: key, ...setFields(composer, THREAD_FIELDS) };
  if (head) {
    const workspaceId = str(obj(head.workspaceIdentifier)?.id);
    if (workspaceId) metadata.workspaceId = workspaceId;
    if (head.isArchived === true) metadata.isArchived = true;
  }
  if (missing > 0) metadata.missingBubbles = missing;
  if (empty > 0) metadata.emptyBubbles = empty;
  if (doc.orphanBubbles) metadata.orphanBubbles = doc.orphanBubbles;
  return {
    key,
    title: name ?? (firstPrompt ? titleFromContent(firstPrompt.content) : null),
    toolName: "cursor",
    project: workspaceFolder(composer, head),
    createdAt: isoFromMs(composer.createdAt) ?? isoFromMs(head?.createdAt) ?? turns.find((t) => t.timestamp)?.timestamp ?? null,
    lastUpdatedAt: latest([composer.lastUpdatedAt, composer.conversationCheckpointLastUpdatedAt, head?.lastUpdatedAt], turns),
    metadata,
    ...(parentKey
      ? {
          parentKey,
          // A Best-of-N run is the same prompt answered by another model (a branch); a sub-agent is started by a task call, tied by its agentId.
          relation: bestOfN ? { kind: "fork" as const, atTurnKey: null } : { kind: "subagent" as const, toolCallId: null, agentId: key },
        }
      : {}),
    turns,
  };
}
