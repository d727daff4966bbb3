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
import { AGENT_NAME, ClaudeCodeSource, LineSupply, Plan, Skeleton, ThreadPlan, UUID_NAME } from "./shapes";
import { latestUsage, responseKey, usageOf } from "./usage";
import { isRealPrompt } from "@/lib/domain/title";

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
  add(line: NumberedLine): void;
  /**
   * The plan. `truncatedTail`: the number of a last line that was left out because it is cut
   * short (no line end, not JSON): it is reported as skipped, as a live session's last line is.
   */
  plan(options?: { truncatedTail?: number }): Plan;
};

export async function planClaudeCodeSession(supply: LineSupply, source: ClaudeCodeSource): Promise<Plan> {
  const planner = claudeCodePlanner(source);
  for await (const line of supply()) planner.add(line);
  return planner.plan();
}

export function claudeCodePlanner(source: ClaudeCodeSource): SessionPlanner {
  /** Lines skipped so far; plan() adds a trailing bad line to its own copy. */
  const skippedLines: SkippedEntry[] = [];
  const nodes = new Map<string, Skeleton>();
  const children = new Map<string, string[]>();
  const summaries = new Map<string, string>(); // leafUuid -> summary title
  let customTitle: string | null = null;
  let aiTitle: string | null = null;
  let lastPromptLeaf: string | null = null;
  let sessionId: string | null = null;
  let agentId: string | null = null;
  let firstPromptText: string | null = null;
  let firstCommand: string | null = null;
  const meta: JsonObject = {};
  let firstTime = Number.POSITIVE_INFINITY;
  let lastTime = 0;
  let anyEntry = false;
  /** Task tool calls (id, prompt) in file order, for inline sidechains. */
  const taskCalls: { id: string; prompt: string }[] = [];
  /** Sidechain roots' prompts, by root uuid. */
  const sidechainPrompts = new Map<string, string>();
  let lastLine = 0;
  let pendingBad: SkippedEntry | null = null;
  const agentFile = AGENT_NAME.exec(source.name);
  const compactionRun: CompactionRunReading | null = agentFile?.[1]?.startsWith("acompact")
    ? { afterTurnKey: undefined, modelName: null, responses: new Map() }
    : null;

  function add({ text, line, skipped }: NumberedLine): void {
    lastLine = line;
    if (!skipped && !text.trim()) return;
    if (pendingBad) skippedLines.push(pendingBad);
    pendingBad = null;
    if (skipped) {
      // Too long to read (lib/imports/file-lines.ts): left out, and said so in every report.
      skippedLines.push(skipped);
      return;
    }
    let entry: unknown;
    try {
      entry = parseLine(text);
    } catch {
      pendingBad = { line, reason: "not valid JSON" };
      return;
    }
    if (!isObject(entry)) {
      skippedLines.push({ line, reason: "not a JSON object" });
      return;
    }
    anyEntry = true;
    const type = entry.type;
    if (type === "summary") {
      if (typeof entry.summary === "string" && typeof entry.leafUuid === "string") summaries.set(entry.leafUuid, entry.summary);
      return;
    }
    if (type === "custom-title" && typeof entry.customTitle === "string") customTitle = entry.customTitle;
    if (type === "ai-title" && typeof entry.aiTitle === "string") aiTitle = entry.aiTitle;
    if (type === "last-prompt" && typeof entry.leafUuid === "string") lastPromptLeaf = entry.leafUuid;
    const kind = classify(entry);
    if (kind === null) {
      if ((type === "user" || type === "assistant") && !messageOf(entry))
        skippedLines.push({ line, reason: `${type} entry without a message object` });
      return;
    }
    if (typeof entry.uuid !== "string" || !entry.uuid) {
      if (kind !== "chain-only") skippedLines.push({ line, reason: "uuid: missing" });
      return;
    }
    if (nodes.has(entry.uuid)) return; // a resumed session's copy: the first one wins
    const sidechain = entry.isSidechain === true;
    let parent = typeof entry.parentUuid === "string" ? entry.parentUuid : null;
    if (kind === "compact-boundary" && !parent && typeof entry.logicalParentUuid === "string") parent = entry.logicalParentUuid;
    const time = timeOf(entry);
    nodes.set(entry.uuid, { uuid: entry.uuid, parent, line, kind, time, sidechain });
    if (parent) {
      const list = children.get(parent);
      if (list) list.push(entry.uuid);
      else children.set(parent, [entry.uuid]);
    }
    if (!sessionId && typeof entry.sessionId === "string") sessionId = entry.sessionId;
    if (!agentId && typeof entry.agentId === "string") agentId = entry.agentId;
    for (const field of ["cwd", "gitBranch", "version", "slug"] as const) {
      if (meta[field] === undefined && typeof entry[field] === "string") meta[field] = entry[field];
    }
    if (CONVERSATIONAL.has(kind) && time > 0) {
      firstTime = Math.min(firstTime, time);
      lastTime = Math.max(lastTime, time);
    }
    const message = messageOf(entry);
    if (compactionRun) readCompactionRun(compactionRun, entry, kind, parent);
    if (kind === "prompt" && (!sidechain || agentFile) && firstPromptText === null && isRealPrompt(userText(message?.content)))
      firstPromptText = userText(message?.content);
    if (kind === "user" && !sidechain && firstCommand === null) {
      const command = /<command-name>([^<]*)<\/command-name>/.exec(userText(message?.content));
      const args = /<command-args>([^<]*)<\/command-args>/.exec(userText(message?.content));
      if (command?.[1]) firstCommand = `${command[1].trim()}${args?.[1]?.trim() ? ` ${args[1].trim()}` : ""}`;
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
          taskCalls.push({ id: part.id, prompt: typeof part.input.prompt === "string" ? part.input.prompt : "" });
        }
      }
    }
    if (sidechain && !parent && (kind === "prompt" || kind === "user")) sidechainPrompts.set(entry.uuid, userText(message?.content));
  }

  function plan(options: { truncatedTail?: number } = {}): Plan {
    const skipped = [...skippedLines];
    const warnings: string[] = [];
    const truncated = (line: number): SkippedEntry => ({ line, reason: "truncated last line (the session may still be running)" });
    // A last line cut short is what a live session's file looks like: skip it, say so.
    if (pendingBad)
      skipped.push(pendingBad.line === lastLine && options.truncatedTail === undefined ? truncated(pendingBad.line) : pendingBad);
    if (options.truncatedTail !== undefined) skipped.push(truncated(options.truncatedTail));
    if (!anyEntry) throw new ImportFormatError("no Claude Code entries: the file is empty or holds no JSON objects");
    if (nodes.size === 0) throw new ImportFormatError("no Claude Code conversation entries (user, assistant or system) in the file");

    const fileName = source.name.split(/[\\/]/).pop() ?? source.name;
    if (compactionRun && agentFile) {
      // Not a conversation: what it cost is counted with the session it compacted.
      const threadKey = sessionId ?? UUID_DIR.exec(source.name)?.[1]?.toLowerCase() ?? null;
      if (!threadKey)
        return {
          threads: [],
          skipped,
          warnings: [...warnings, `${fileName}: a compaction run without a sessionId: its usage cannot be tied to a session`],
        };
      const run = compactionRunOf(compactionRun, threadKey, agentId ?? agentFile[1]!);
      const note = `${fileName} is the compaction summariser's transcript, not a conversation: no thread; its usage (${run.responses.length} response${run.responses.length === 1 ? "" : "s"}) counts with session ${threadKey}`;
      return { threads: [], skipped, warnings: [...warnings, note], compactionRuns: [run] };
    }
    const sessionKey = UUID_NAME.exec(source.name)?.[1]?.toLowerCase() ?? sessionId ?? fileName.replace(/\.jsonl$/i, "");
    const metadata: JsonObject = { ...meta, sessionId: sessionId ?? sessionKey };
    const project = typeof meta.cwd === "string" ? meta.cwd : null;
    const iso = (t: number) => (Number.isFinite(t) && t > 0 ? new Date(t).toISOString() : null);

    // --- threads -------------------------------------------------------------------------------
    const timeByLine = new Map([...nodes.values()].map((n) => [n.line, n.time]));
    const mainLines = new Set<number>();
    const threads: ThreadPlan[] = [];
    const isPrompt = (uuid: string) => nodes.get(uuid)?.kind === "prompt";

    // Active leaf and path (main, non-sidechain entries only).
    let leaf: Skeleton | undefined = lastPromptLeaf ? nodes.get(lastPromptLeaf) : undefined;
    if (!leaf || leaf.sidechain) {
      for (const node of nodes.values()) {
        if (node.sidechain || !CONVERSATIONAL.has(node.kind)) continue;
        if (!leaf || node.time > leaf.time || (node.time === leaf.time && node.line > leaf.line)) leaf = node;
      }
    }
    const onPath = new Set<string>();
    for (let node = leaf, guard = 0; node && guard <= nodes.size; guard++) {
      if (onPath.has(node.uuid)) break; // a loop in parent links: stop
      onPath.add(node.uuid);
      node = node.parent ? nodes.get(node.parent) : undefined;
    }

    // Real rewinds: a node on the path with two or more prompt children.
    const forkRoots: { root: string; at: string }[] = [];
    for (const uuid of onPath) {
      const prompts = (children.get(uuid) ?? []).filter(isPrompt);
      if (prompts.length < 2) continue;
      for (const child of prompts) if (!onPath.has(child)) forkRoots.push({ root: child, at: uuid });
    }
    const forkOf = new Map<string, number>(); // uuid -> index in forks
    const forks: { root: string; at: string; lines: Set<number> }[] = [];
    for (const { root, at } of forkRoots.sort((a, b) => nodes.get(a.root)!.line - nodes.get(b.root)!.line)) {
      const index = forks.length;
      const lines = new Set<number>();
      const stack = [root];
      while (stack.length > 0) {
        const uuid = stack.pop()!;
        if (forkOf.has(uuid)) continue;
        const node = nodes.get(uuid);
        if (!node) continue;
        forkOf.set(uuid, index);
        if (CONVERSATIONAL.has(node.kind)) lines.add(node.line);
        stack.push(...(children.get(uuid) ?? []));
      }
      forks.push({ root, at, lines });
    }

    // Inline sidechains: group by root.
    const sidechainRootOf = (node: Skeleton): string => {
      let current = node;
      for (let guard = 0; guard < nodes.size; guard++) {
        const parent = current.parent ? nodes.get(current.parent) : undefined;
        if (!parent || !parent.sidechain) return current.uuid;
        current = parent;
      }
      return current.uuid;
    };
    const sidechains = new Map<string, Set<number>>();
    /** Task calls linked to a sidechain already. */
    const taken = new Set<string>();
    for (const node of nodes.values()) {
      if (!CONVERSATIONAL.has(node.kind)) continue;
      if (node.sidechain && !agentFile) {
        const root = sidechainRootOf(node);
        const lines = sidechains.get(root) ?? new Set<number>();
        lines.add(node.line);
        sidechains.set(root, lines);
      } else if (!forkOf.has(node.uuid)) {
        mainLines.add(node.line);
      }
    }

    const title =
      customTitle ??
      aiTitle ??
      [...summaries.entries()]
        .filter(([leafUuid]) => nodes.has(leafUuid))
        .map(([, s]) => s)
        .pop() ??
      (firstPromptText ? collapse(firstPromptText) : firstCommand ? collapse(firstCommand) : null);
    if (agentFile) {
      const id = agentId ?? agentFile[1]!;
      threads.push({
        thread: {
          key: `${sessionId ?? sessionKey}:agent:${id}`,
          parentKey: sessionId ?? null,
          relation: { kind: "subagent", toolCallId: null, agentId: id },
          title: firstPromptText ? collapse(firstPromptText) : `Sub-agent ${id}`,
          toolName: "claude-code",
          project,
          createdAt: iso(firstTime),
          lastUpdatedAt: iso(lastTime),
          metadata: { ...metadata, agentId: id },
        },
        lines: mainLines,
      });
      return { threads, skipped, warnings };
    }

    threads.push({
      thread: {
        key: sessionKey,
        title,
        toolName: "claude-code",
        project,
        createdAt: iso(firstTime),
        lastUpdatedAt: iso(lastTime),
        metadata,
      },
      lines: mainLines,
    });
    for (const fork of forks) {
      const times = [...fork.lines].map((l) => timeByLine.get(l) ?? 0);
      const rootNode = nodes.get(fork.root)!;
      threads.push({
        thread: {
          key: `${sessionKey}:fork:${fork.root}`,
          parentKey: sessionKey,
          relation: { kind: "fork", atTurnKey: fork.at },
          title: `Rewound: ${collapse(firstPromptText ?? "", 60) || "prompt"} (${new Date(rootNode.time || 0).toISOString().slice(0, 16).replace("T", " ")})`,
          toolName: "claude-code",
          project,
          createdAt: iso(Math.min(...times)),
          lastUpdatedAt: iso(Math.max(...times)),
          metadata: { ...metadata, forkedAt: fork.at },
        },
        lines: fork.lines,
      });
    }
    for (const [root, lines] of sidechains) {
      const prompt = sidechainPrompts.get(root) ?? "";
      const call =
        taskCalls.find((c) => !taken.has(c.id) && c.prompt && c.prompt.trim() === prompt.trim()) ?? taskCalls.find((c) => !taken.has(c.id));
      if (call) taken.add(call.id);
      else warnings.push(`sidechain starting at ${root}: no Task tool call to link it to`);
      const times = [...lines].map((l) => timeByLine.get(l) ?? 0);
      threads.push({
        thread: {
          key: `${sessionKey}:sidechain:${root}`,
          parentKey: sessionKey,
          relation: { kind: "subagent", toolCallId: call?.id ?? null },
          title: prompt ? collapse(prompt) : "Sub-agent",
          toolName: "claude-code",
          project,
          createdAt: iso(Math.min(...times)),
          lastUpdatedAt: iso(Math.max(...times)),
          metadata: { ...metadata, sidechainRoot: root },
        },
        lines,
      });
    }
    return { threads, skipped, warnings };
  }

  return { add, plan };
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
