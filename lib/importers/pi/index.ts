/**
 * Pi coding agent sessions (`~/.pi/agent/sessions/--<cwd>--/<timestamp>_<session id>.jsonl`),
 * docs/formats.md §5, "Pi". Pure: the caller supplies the lines. One file = one session = a main
 * thread and one fork thread per abandoned branch.
 *
 * The format as this importer relies on it (checked against pi-mono's session-manager.ts and
 * docs/session.md):
 * - Line 1 is the header `{type:"session", version?, id, timestamp, cwd, parentSession?}`. Version 1
 *   (no `version`) headers also carry `provider`, `modelId`, `thinkingLevel` and, for a branched
 *   session, `branchedFrom` (the path of the file it was branched from). pi migrates an old file
 *   in place when it opens it, so a file is read as the version its header says.
 * - Every later line is an entry `{type, timestamp (ISO), ...}`. From version 2 on entries carry
 *   `id` and `parentId` and form a tree in the one file: going back to an earlier entry and going
 *   on appends children to it. Version 1 entries have no ids: the file is one linear history.
 * - Entry types: `message` (an agent message, by `role`: `user` {content: string | text/image
 *   blocks}, `assistant` {content: text/thinking/toolCall blocks, api, provider, model, usage,
 *   stopReason, errorMessage?}, `toolResult` {toolCallId, toolName, content, isError, details?},
 *   `bashExecution` (a user `!command`), `custom` (`hookMessage` in version 2), `branchSummary`,
 *   `compactionSummary`), `model_change` {provider, modelId}, `thinking_level_change`
 *   {thinkingLevel}, `compaction` {summary, firstKeptEntryId (v1: firstKeptEntryIndex, the 0-based
 *   index of the parsed line, header = 0), tokensBefore, details?}, `branch_summary` {fromId,
 *   summary}, `session_info` {name}, `label` {targetId, label?}, `custom` (extension state, never
 *   sent to the model) and `custom_message` (extension text that is sent).
 * - Usage per assistant message: `{input, output, cacheRead, cacheWrite, totalTokens, cost{...,
 *   total}}`; `input` excludes the cache (totalTokens is the sum of the four) and cost is pi's
 *   own price in USD.
 *
 * How it becomes threads and turns:
 * - The active branch (the path from the file's last entry up to the root, where pi puts its
 *   leaf) is the main thread, keyed by the header id. Every other leaf ends an abandoned branch:
 *   a fork thread `<id>:fork:<first entry id>` holding only the branch's own entries (as Claude
 *   Code rewinds do), relation fork at the last turn it shares with the branch it left (null when
 *   it shares none: a new root, pi's re-edit of the first prompt). Leaves are taken in file order,
 *   so a stretch two abandoned branches share stays with the older; the newer is its fork.
 * - Turn keys are entry ids (version 1: line numbers, which appending never changes).
 * - Messages, compactions, branch summaries and custom messages make turns: user and custom
 *   messages user turns; assistant messages assistant turns (text, thinking folded, tool calls;
 *   aborted and failed replies kept and marked); tool results tool turns whose tool_result part
 *   names the call (an edit's numbered diff is added as a unified diff, `diff`); a `!command` a user
 *   turn with its own paired call and result; compactions system turns with a compaction marker
 *   (summary as content, tokensBefore, the first kept entry in metadata); branch summaries system
 *   turns (metadata fromId) at the start of the branch they lead.
 * - model_change and thinking_level_change set what the following turns on the same path are
 *   attributed to (an assistant message's own provider/model win); they are listed in the
 *   thread's metadata. The last session_info name is the title (else the first prompt); labels go
 *   on their target turn's metadata. Extension state (`custom` entries) is skipped with a reason.
 * - A session branched into a new file (v1 `branchedFrom`, later `parentSession`) starts with a
 *   copy of the parent's history, entries unchanged: the entries older than the header are that
 *   copy. Their turns are kept (the file reads whole on its own) and marked `copiedFromParent`;
 *   the thread is a fork of the parent session (its id from the parent file's name) at the last
 *   copied turn, whose key is the parent's own key for it (v1 copies keep their line numbers,
 *   later ones their ids); at no turn when nothing was copied (`/fork` from the first prompt).
 *   The parent file itself is never read.
 */
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { collapse } from "../text";
import { isObject, type ImportedThread, type ImportedTurn, type NumberedLine, type ParsedSource, type SkippedEntry } from "../types";
import { defined, isPiHeader, readPiSession, str, type PiNode } from "./entries";
import { linkBranchThreads, splitBranches } from "./tree";
import { entryTurn, makesTurn, type PiSettings } from "./turns";
import { isRealPrompt } from "@/lib/domain/threads/title";

/** Detection by content: the first line is a Pi session header. */
export function looksLikePiSession(firstLine: unknown, _fileName: string): boolean {
  return isPiHeader(firstLine);
}

/**
 * `.../<timestamp>_<session id>.jsonl` -> the session id (the header id of that file).
 * @internal exported for its tests
 */
export function sessionIdFromPath(filePath: string): string | null {
  const base = (filePath.split(/[\\/]/).pop() ?? "").replace(/\.jsonl$/i, "");
  const underscore = base.indexOf("_");
  const id = underscore === -1 ? base : base.slice(underscore + 1);
  return id || null;
}

/** A setting change or other entry kept as thread metadata rather than a turn. */
type Note = { key: string; line: number; timestamp: string | null } & JsonObject;

export function parsePiSession(lines: NumberedLine[], source: { name: string }): ParsedSource {
  const file = readPiSession(lines, source.name);
  const { header, nodes, skipped, warnings } = file;
  const sessionKey = str(header.id)!;
  const { branches, unreached } = splitBranches(nodes, makesTurn, warnings);
  for (const node of unreached) skipped.push({ line: node.line, reason: "in a loop of parent links, reached from no leaf" });

  const settingsAfter = settingsAlongTree(nodes, {
    provider: str(header.provider),
    modelId: str(header.modelId),
    thinkingLevel: str(header.thinkingLevel),
  });
  const labels = finalLabels(nodes);
  const sessionName = nodes.reduce<string | null>(
    (name, node) => (node.entry.type === "session_info" && typeof node.entry.name === "string" ? node.entry.name : name),
    null,
  );
  const callPaths = toolCallPaths(nodes);
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const parentSessionPath = str(header.branchedFrom) ?? str(header.parentSession);
  const headerTime = Date.parse(str(header.timestamp) ?? "");

  const threads: ImportedThread[] = [];
  /** Which thread (index into `threads`) each branch became; -1 when it made no turns. */
  const threadOfBranch: number[] = [];
  let copiedThrough: string | null = null;
  branches.forEach((branch, index) => {
    const turns: ImportedTurn[] = [];
    const modelChanges: Note[] = [];
    const thinkingLevels: Note[] = [];
    const branchSkipped: SkippedEntry[] = [];
    let copying = index === 0 && parentSessionPath !== null && Number.isFinite(headerTime);
    for (const node of branch.nodes) {
      const { entry } = node;
      const timestamp = str(entry.timestamp);
      const parent = node.parentKey === null ? undefined : byKey.get(node.parentKey);
      const settings = (parent && settingsAfter.get(parent.key)) ?? settingsAfter.get("")!;
      const firstKept = typeof entry.firstKeptEntryIndex === "number" ? (file.parsed[entry.firstKeptEntryIndex]?.key ?? null) : null;
      const outcome = entryTurn(node, settings, firstKept === "header" ? null : firstKept, (id) => callPaths.get(id) ?? null);
      // The copy of the parent's history is the entries older than this file's header.
      if (copying && !(timestamp !== null && Date.parse(timestamp) < headerTime)) copying = false;
      if ("turn" in outcome) {
        const turn = outcome.turn;
        const label = labels.get(node.key);
        if (label !== undefined || copying)
          turn.metadata = { ...turn.metadata, ...(label !== undefined ? { label } : {}), ...(copying ? { copiedFromParent: true } : {}) };
        if (copying) copiedThrough = turn.key;
        turns.push(turn);
      } else if ("skip" in outcome) {
        branchSkipped.push({ line: node.line, reason: outcome.skip });
      } else if (entry.type === "model_change") {
        modelChanges.push({ key: node.key, line: node.line, timestamp, provider: str(entry.provider), modelId: str(entry.modelId) });
      } else if (entry.type === "thinking_level_change") {
        thinkingLevels.push({ key: node.key, line: node.line, timestamp, thinkingLevel: str(entry.thinkingLevel) });
      }
    }
    if (index > 0 && turns.length === 0) {
      // An abandoned branch without a message (a label or setting change left behind): nothing to read.
      threadOfBranch.push(-1);
      for (const node of branch.nodes) skipped.push({ line: node.line, reason: "on an abandoned branch that holds no message" });
      return;
    }
    skipped.push(...branchSkipped);
    threadOfBranch.push(threads.length);
    threads.push({
      key: index === 0 ? sessionKey : `${sessionKey}:fork:${branch.nodes[0]!.key}`,
      title: null,
      toolName: "pi",
      project: str(header.cwd),
      // A branched file's copied history is older than its header: the thread starts with it.
      createdAt: index === 0 ? earliest([isoOf(header.timestamp), turns[0]?.timestamp ?? null]) : (turns[0]?.timestamp ?? null),
      lastUpdatedAt:
        index === 0
          ? latest([isoOf(header.timestamp), ...turns.map((t) => t.timestamp ?? null)])
          : latest(turns.map((t) => t.timestamp ?? null)),
      metadata: defined({
        sessionId: sessionKey,
        version: file.version,
        cwd: str(header.cwd),
        // v1 headers: the model and thinking level the session started with.
        provider: str(header.provider),
        modelId: str(header.modelId),
        thinkingLevel: str(header.thinkingLevel),
        branchedFrom: str(header.branchedFrom),
        parentSession: str(header.parentSession),
        name: sessionName,
        modelChanges: modelChanges.length > 0 ? modelChanges : null,
        thinkingLevelChanges: thinkingLevels.length > 0 ? thinkingLevels : null,
        forkedAt: index > 0 ? branch.atKey : null,
        leafId: index > 0 ? branch.nodes.at(-1)!.key : null,
      }),
      turns,
    });
  });

  const main = threads[0]!;
  const firstPrompt = main.turns.find(
    (turn) => turn.role === "user" && !turn.metadata?.bashExecution && !turn.metadata?.customMessage && isRealPrompt(turn.content),
  );
  main.title = sessionName ?? (firstPrompt ? collapse(firstPrompt.content) || null : null);
  if (parentSessionPath !== null) {
    const parentKey = sessionIdFromPath(parentSessionPath);
    if (parentKey && parentKey !== sessionKey) {
      main.parentKey = parentKey;
      main.relation = { kind: "fork", atTurnKey: copiedThrough };
    }
  }
  linkBranchThreads(branches, threadOfBranch, threads, main, "Pi session");
  return { format: "pi", threads, skipped: skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), warnings };
}

/** The settings in force after each entry, along the tree (key "" holds the header's). */
function settingsAlongTree(nodes: PiNode[], initial: PiSettings): Map<string, PiSettings> {
  const after = new Map<string, PiSettings>([["", initial]]);
  for (const node of nodes) {
    const before = (node.parentKey !== null && after.get(node.parentKey)) || initial;
    const { entry } = node;
    let next = before;
    if (entry.type === "model_change") next = { ...before, provider: str(entry.provider), modelId: str(entry.modelId) };
    else if (entry.type === "thinking_level_change") next = { ...before, thinkingLevel: str(entry.thinkingLevel) };
    else if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
      // pi itself takes the model of the last reply as the one in use.
      const provider = str(entry.message.provider) ?? before.provider;
      const modelId = str(entry.message.model) ?? before.modelId;
      if (provider !== before.provider || modelId !== before.modelId) next = { ...before, provider, modelId };
    }
    after.set(node.key, next);
  }
  return after;
}

/** Each entry's label after the whole file: the last label entry for it wins, one without a label clears it. */
function finalLabels(nodes: PiNode[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const { entry } of nodes) {
    if (entry.type !== "label" || typeof entry.targetId !== "string") continue;
    if (typeof entry.label === "string" && entry.label) labels.set(entry.targetId, entry.label);
    else labels.delete(entry.targetId);
  }
  return labels;
}

/** The `path` argument of every tool call, by call id: an edit's diff names its file. */
function toolCallPaths(nodes: PiNode[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const { entry } of nodes) {
    const message = entry.type === "message" && isObject(entry.message) ? entry.message : null;
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (
        isObject(block) &&
        block.type === "toolCall" &&
        typeof block.id === "string" &&
        isObject(block.arguments) &&
        typeof block.arguments.path === "string"
      )
        paths.set(block.id, block.arguments.path);
    }
  }
  return paths;
}

function isoOf(value: JsonValue | undefined): string | null {
  const time = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** The latest / earliest of some ISO-8601 UTC times (they compare as strings). */
function latest(times: (string | null)[]): string | null {
  let last: string | null = null;
  for (const time of times) if (time && (last === null || time > last)) last = time;
  return last;
}

function earliest(times: (string | null)[]): string | null {
  let first: string | null = null;
  for (const time of times) if (time && (first === null || time < first)) first = time;
  return first;
}
