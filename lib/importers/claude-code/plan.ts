// The first pass: the uuid tree of a session, its active path, rewinds as forks, sub-agents, titles.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import {
  ImportFormatError,
  isObject,
  type ImportedCompactionRun,
  type ImportedUsage,
  type NumberedLine,
  type SkippedEntry,
} from "../types";
import { collapse } from "../text";
import { CONVERSATIONAL, classify, messageOf, parseLine, timeOf, userText } from "./entries";
import { AGENT_NAME, ClaudeCodeSource, Plan, Skeleton, ThreadPlan, UUID_NAME } from "./shapes";
import { activePath, forksOf, linesOutsideForks, type Fork, type SessionTree } from "./tree";
import { latestUsage, responseKey, usageOf } from "./usage";
import { isRealPrompt } from "@/lib/domain/threads/title";

/** An `agent-acompact-*` file while it is read: the request it followed and each response's usage. */
type CompactionRunReading = {
  afterTurnKey: string | null | undefined;
  modelName: string | null;
  responses: Map<string, { timestamp: string | null; usage: ImportedUsage }>;
};

/**
 * The first pass as a fold: `add` takes the session's lines in order, `plan` answers the threads
 * for the lines added so far and can be asked again after more lines (a followed session that
 * grew is planned from its new lines, see lib/imports/claude-code-session.ts). `plan` changes
 * nothing the next `add` relies on.
 */
export type SessionPlanner = {
  /**
   * Takes a line; answers its entry when it is a JSON object, for the second pass to take in place
   * of the line (TurnReader.addEntry): a line is then decoded and parsed once.
   */
  add(line: NumberedLine): JsonObject | null;
  /**
   * The plan. `truncatedTail`: the number of a last line that was left out because it is cut
   * short (no line end, not JSON): it is reported as skipped, as a live session's last line is.
   */
  plan(options?: { truncatedTail?: number }): Plan;
};

export function claudeCodePlanner(source: ClaudeCodeSource): SessionPlanner {
  const agentFile = AGENT_NAME.exec(source.name);
  const state: PlannerState = {
    source,
    agentFile,
    compactionRun: agentFile?.[1]?.startsWith("acompact") ? { afterTurnKey: undefined, modelName: null, responses: new Map() } : null,
    skippedLines: [],
    nodes: new Map(),
    children: new Map(),
    summaries: new Map(),
    customTitle: null,
    aiTitle: null,
    lastPromptLeaf: null,
    sessionId: null,
    agentId: null,
    firstPromptText: null,
    firstCommand: null,
    meta: {},
    firstTime: Number.POSITIVE_INFINITY,
    lastTime: 0,
    anyEntry: false,
    taskCalls: [],
    sidechainPrompts: new Map(),
    lastLine: 0,
    pendingBad: null,
  };
  return { add: (line) => addLine(state, line), plan: (options = {}) => planOf(state, options) };
}

/** What the first pass gathered from the lines added so far. */
type PlannerState = SessionTree & {
  readonly source: ClaudeCodeSource;
  /** The `agent-<id>.jsonl` name of a sub-agent's file. */
  readonly agentFile: RegExpExecArray | null;
  readonly compactionRun: CompactionRunReading | null;
  /** Lines skipped so far; plan() adds a trailing bad line to its own copy. */
  readonly skippedLines: SkippedEntry[];
  readonly summaries: Map<string, string>; // leafUuid -> summary title
  customTitle: string | null;
  aiTitle: string | null;
  lastPromptLeaf: string | null;
  sessionId: string | null;
  agentId: string | null;
  firstPromptText: string | null;
  firstCommand: string | null;
  readonly meta: JsonObject;
  firstTime: number;
  lastTime: number;
  anyEntry: boolean;
  /** Task tool calls (id, prompt) in file order, for inline sidechains. */
  readonly taskCalls: { id: string; prompt: string }[];
  /** Sidechain roots' prompts, by root uuid. */
  readonly sidechainPrompts: Map<string, string>;
  lastLine: number;
  pendingBad: SkippedEntry | null;
};

function addLine(state: PlannerState, { text, line, skipped }: NumberedLine): JsonObject | null {
  state.lastLine = line;
  if (!skipped && !text.trim()) return null;
  if (state.pendingBad) state.skippedLines.push(state.pendingBad);
  state.pendingBad = null;
  if (skipped) {
    // Too long to read (lib/imports/file-lines.ts): left out, and said so in every report.
    state.skippedLines.push(skipped);
    return null;
  }
  let entry: unknown;
  try {
    entry = parseLine(text);
  } catch {
    state.pendingBad = { line, reason: "not valid JSON" };
    return null;
  }
  if (!isObject(entry)) {
    state.skippedLines.push({ line, reason: "not a JSON object" });
    return null;
  }
  state.anyEntry = true;
  addEntry(state, entry, line);
  return entry;
}

/** An entry: a title, or a node of the tree (the first copy of a uuid) whose facts the threads take. */
function addEntry(state: PlannerState, entry: JsonObject, line: number): void {
  const type = entry.type;
  if (type === "summary") {
    if (typeof entry.summary === "string" && typeof entry.leafUuid === "string") state.summaries.set(entry.leafUuid, entry.summary);
    return;
  }
  if (type === "custom-title" && typeof entry.customTitle === "string") state.customTitle = entry.customTitle;
  if (type === "ai-title" && typeof entry.aiTitle === "string") state.aiTitle = entry.aiTitle;
  if (type === "last-prompt" && typeof entry.leafUuid === "string") state.lastPromptLeaf = entry.leafUuid;
  const kind = classify(entry);
  if (kind === null) {
    if ((type === "user" || type === "assistant") && !messageOf(entry))
      state.skippedLines.push({ line, reason: `${type} entry without a message object` });
    return;
  }
  if (typeof entry.uuid !== "string" || !entry.uuid) {
    if (kind !== "chain-only") state.skippedLines.push({ line, reason: "uuid: missing" });
    return;
  }
  if (state.nodes.has(entry.uuid)) return; // a resumed session's copy: the first one wins
  const sidechain = entry.isSidechain === true;
  let parent = typeof entry.parentUuid === "string" ? entry.parentUuid : null;
  if (kind === "compact-boundary" && !parent && typeof entry.logicalParentUuid === "string") parent = entry.logicalParentUuid;
  const node: Skeleton = { uuid: entry.uuid, parent, line, kind, time: timeOf(entry), sidechain };
  state.nodes.set(entry.uuid, node);
  if (parent) {
    const list = state.children.get(parent);
    if (list) list.push(entry.uuid);
    else state.children.set(parent, [entry.uuid]);
  }
  noteFacts(state, entry, node);
}

/** What a node tells of its session: ids, metadata, times, the first prompt or command, Task calls, sidechain prompts. */
function noteFacts(state: PlannerState, entry: JsonObject, { uuid, parent, kind, time, sidechain }: Skeleton): void {
  if (!state.sessionId && typeof entry.sessionId === "string") state.sessionId = entry.sessionId;
  if (!state.agentId && typeof entry.agentId === "string") state.agentId = entry.agentId;
  for (const field of ["cwd", "gitBranch", "version", "slug"] as const) {
    if (state.meta[field] === undefined && typeof entry[field] === "string") state.meta[field] = entry[field];
  }
  if (CONVERSATIONAL.has(kind) && time > 0) {
    state.firstTime = Math.min(state.firstTime, time);
    state.lastTime = Math.max(state.lastTime, time);
  }
  const message = messageOf(entry);
  if (state.compactionRun) readCompactionRun(state.compactionRun, entry, kind, parent);
  if (kind === "prompt" && (!sidechain || state.agentFile) && state.firstPromptText === null && isRealPrompt(userText(message?.content)))
    state.firstPromptText = userText(message?.content);
  if (kind === "user" && !sidechain && state.firstCommand === null) {
    const command = /<command-name>([^<]*)<\/command-name>/.exec(userText(message?.content));
    const args = /<command-args>([^<]*)<\/command-args>/.exec(userText(message?.content));
    if (command?.[1]) state.firstCommand = `${command[1].trim()}${args?.[1]?.trim() ? ` ${args[1].trim()}` : ""}`;
  }
  if (kind === "assistant" && Array.isArray(message?.content)) {
    for (const part of message.content) {
      if (
        isObject(part) &&
        part.type === "tool_use" &&
        (part.name === "Task" || part.name === "Agent") &&
        typeof part.id === "string" &&
        isObject(part.input)
      ) {
        state.taskCalls.push({ id: part.id, prompt: typeof part.input.prompt === "string" ? part.input.prompt : "" });
      }
    }
  }
  if (sidechain && !parent && (kind === "prompt" || kind === "user")) state.sidechainPrompts.set(uuid, userText(message?.content));
}

function planOf(state: PlannerState, options: { truncatedTail?: number }): Plan {
  const { source, nodes, pendingBad, agentFile, compactionRun } = state;
  const skipped = [...state.skippedLines];
  const truncated = (line: number): SkippedEntry => ({ line, reason: "truncated last line (the session may still be running)" });
  // A last line cut short is what a live session's file looks like: skip it, say so.
  if (pendingBad)
    skipped.push(pendingBad.line === state.lastLine && options.truncatedTail === undefined ? truncated(pendingBad.line) : pendingBad);
  if (options.truncatedTail !== undefined) skipped.push(truncated(options.truncatedTail));
  if (!state.anyEntry) throw new ImportFormatError("no Claude Code entries: the file is empty or holds no JSON objects");
  if (nodes.size === 0) throw new ImportFormatError("no Claude Code conversation entries (user, assistant or system) in the file");

  const fileName = source.name.split(/[\\/]/).pop() ?? source.name;
  if (compactionRun && agentFile) return compactionRunPlan(state, compactionRun, agentFile, fileName, skipped);
  const sessionKey = UUID_NAME.exec(source.name)?.[1]?.toLowerCase() ?? state.sessionId ?? fileName.replace(/\.jsonl$/i, "");
  const base: ThreadBase = {
    sessionKey,
    metadata: { ...state.meta, sessionId: state.sessionId ?? sessionKey },
    project: typeof state.meta.cwd === "string" ? state.meta.cwd : null,
  };
  const { forks, forkOf } = forksOf(state, activePath(state, state.lastPromptLeaf));
  const { mainLines, sidechains } = linesOutsideForks(state, forkOf, agentFile !== null);
  if (agentFile) return { threads: [agentThread(state, agentFile, base, mainLines)], skipped, warnings: [] };
  const warnings: string[] = [];
  const timeByLine = new Map([...nodes.values()].map((n) => [n.line, n.time]));
  const timesOf = (lines: Set<number>) => [...lines].map((l) => timeByLine.get(l) ?? 0);
  const threads = [
    mainThread(state, base, mainLines),
    ...forks.map((fork) => forkThread(state, base, fork, timesOf(fork.lines))),
    ...sidechainThreads(state, base, sidechains, timesOf, warnings),
  ];
  return { threads, skipped, warnings };
}

/** An `agent-acompact-*` file: not a conversation; what it cost is counted with the session it compacted. */
function compactionRunPlan(
  state: PlannerState,
  reading: CompactionRunReading,
  agentFile: RegExpExecArray,
  fileName: string,
  skipped: SkippedEntry[],
): Plan {
  const threadKey = state.sessionId ?? UUID_DIR.exec(state.source.name)?.[1]?.toLowerCase() ?? null;
  if (!threadKey)
    return { threads: [], skipped, warnings: [`${fileName}: a compaction run without a sessionId: its usage cannot be tied to a session`] };
  const run = compactionRunOf(reading, threadKey, state.agentId ?? agentFile[1]!);
  const note = `${fileName} is the compaction summariser's transcript, not a conversation: no thread; its usage (${run.responses.length} response${run.responses.length === 1 ? "" : "s"}) counts with session ${threadKey}`;
  return { threads: [], skipped, warnings: [note], compactionRuns: [run] };
}

/** What every thread of the session shares. */
type ThreadBase = { sessionKey: string; metadata: JsonObject; project: string | null };

function iso(time: number): string | null {
  return Number.isFinite(time) && time > 0 ? new Date(time).toISOString() : null;
}

/** A sub-agent's own file (2.x): one thread, a sub-agent of its session. */
function agentThread(state: PlannerState, agentFile: RegExpExecArray, base: ThreadBase, lines: Set<number>): ThreadPlan {
  const id = state.agentId ?? agentFile[1]!;
  return {
    thread: {
      key: `${state.sessionId ?? base.sessionKey}:agent:${id}`,
      parentKey: state.sessionId ?? null,
      relation: { kind: "subagent", toolCallId: null, agentId: id },
      title: state.firstPromptText ? collapse(state.firstPromptText) : `Sub-agent ${id}`,
      toolName: "claude-code",
      project: base.project,
      createdAt: iso(state.firstTime),
      lastUpdatedAt: iso(state.lastTime),
      metadata: { ...base.metadata, agentId: id },
    },
    lines,
  };
}

function mainThread(state: PlannerState, base: ThreadBase, lines: Set<number>): ThreadPlan {
  const { customTitle, aiTitle, summaries, nodes, firstPromptText, firstCommand } = state;
  const title =
    customTitle ??
    aiTitle ??
    [...summaries.entries()]
      .filter(([leafUuid]) => nodes.has(leafUuid))
      .map(([, s]) => s)
      .pop() ??
    (firstPromptText ? collapse(firstPromptText) : firstCommand ? collapse(firstCommand) : null);
  return {
    thread: {
      key: base.sessionKey,
      title,
      toolName: "claude-code",
      project: base.project,
      createdAt: iso(state.firstTime),
      lastUpdatedAt: iso(state.lastTime),
      metadata: base.metadata,
    },
    lines,
  };
}

/** A rewound prompt's subtree; `times`: its lines' times. */
function forkThread(state: PlannerState, base: ThreadBase, fork: Fork, times: number[]): ThreadPlan {
  const rootNode = state.nodes.get(fork.root)!;
  return {
    thread: {
      key: `${base.sessionKey}:fork:${fork.root}`,
      parentKey: base.sessionKey,
      relation: { kind: "fork", atTurnKey: fork.at },
      title: `Rewound: ${collapse(state.firstPromptText ?? "", 60) || "prompt"} (${new Date(rootNode.time || 0).toISOString().slice(0, 16).replace("T", " ")})`,
      toolName: "claude-code",
      project: base.project,
      createdAt: iso(Math.min(...times)),
      lastUpdatedAt: iso(Math.max(...times)),
      metadata: { ...base.metadata, forkedAt: fork.at },
    },
    lines: fork.lines,
  };
}

/** Inline sidechains (1.0.x), each linked to the Task call whose prompt matches, else the first one not linked yet. */
function sidechainThreads(
  state: PlannerState,
  base: ThreadBase,
  sidechains: Map<string, Set<number>>,
  timesOf: (lines: Set<number>) => number[],
  warnings: string[],
): ThreadPlan[] {
  const { taskCalls } = state;
  /** Task calls linked to a sidechain already. */
  const taken = new Set<string>();
  return [...sidechains].map(([root, lines]) => {
    const prompt = state.sidechainPrompts.get(root) ?? "";
    const call =
      taskCalls.find((c) => !taken.has(c.id) && c.prompt && c.prompt.trim() === prompt.trim()) ?? taskCalls.find((c) => !taken.has(c.id));
    if (call) taken.add(call.id);
    else warnings.push(`sidechain starting at ${root}: no Task tool call to link it to`);
    const times = timesOf(lines);
    return {
      thread: {
        key: `${base.sessionKey}:sidechain:${root}`,
        parentKey: base.sessionKey,
        relation: { kind: "subagent", toolCallId: call?.id ?? null },
        title: prompt ? collapse(prompt) : "Sub-agent",
        toolName: "claude-code",
        project: base.project,
        createdAt: iso(Math.min(...times)),
        lastUpdatedAt: iso(Math.max(...times)),
        metadata: { ...base.metadata, sidechainRoot: root },
      },
      lines,
    };
  });
}

/** `<sessionId>/subagents/agent-x.jsonl`: the session folder an agent file sits in. */
const UUID_DIR = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})[\\/]subagents[\\/]/i;

function readCompactionRun(run: CompactionRunReading, entry: Record<string, JsonValue>, kind: string, parent: string | null): void {
  if (run.afterTurnKey === undefined) run.afterTurnKey = parent; // the first entry follows the session's last before compacting
  const message = messageOf(entry);
  if (kind !== "assistant" || !message) return;
  if (typeof message.model === "string" && message.model !== "<synthetic>") run.modelName ??= message.model;
  const usage = usageOf(message);
  if (!usage) return;
  const key = responseKey(message, entry, String(entry.uuid));
  const known = run.responses.get(key);
  if (known) known.usage = latestUsage(known.usage, usage);
  else run.responses.set(key, { timestamp: typeof entry.timestamp === "string" ? entry.timestamp : null, usage });
}

function compactionRunOf(run: CompactionRunReading, threadKey: string, runId: string): ImportedCompactionRun {
  return {
    threadKey,
    runId,
    afterTurnKey: run.afterTurnKey ?? null,
    modelProvider: "anthropic",
    modelName: run.modelName,
    responses: [...run.responses].map(([key, response]) => ({ key, ...response })),
  };
}
