/**
 * Claude Code session transcripts (~/.claude/projects/<dir>/<sessionId>.jsonl and sub-agent
 * files), FORMATS.md section 1. Pure: the caller supplies the lines, twice if it wants to stream.
 *
 * Two passes, so a 200 MB session never sits in memory as objects: the first keeps a small
 * skeleton per entry (uuid, parent, kind, time) and decides which thread each entry belongs to;
 * the second reads the lines again and turns the kept entries into turns, thread by thread.
 *
 * How the tree becomes threads:
 * - Entries are deduplicated by uuid (resumed sessions re-write history; the first copy wins).
 * - A node with several children is usually not a fork (parallel tool calls, hook progress and
 *   compaction replays all make siblings). Only a node with two or more typed user prompts as
 *   children is a real rewind: the prompt on the active path stays, each other prompt's subtree
 *   becomes a fork thread. The active path runs from last-prompt's leafUuid, else from the
 *   newest conversational entry, up the parent links (a compact boundary's logical parent
 *   counts as its parent).
 * - Everything else that is not a sidechain stays in the main thread, in file order (the order
 *   Claude Code appended it in).
 * - Inline sidechains (1.0.x) become sub-agent threads, one per sidechain root, linked to the Task
 *   tool call whose prompt matches. Separate agent files (2.x) are parsed on their own
 *   (`agent-<id>.jsonl`) into a sub-agent thread of their session; the main thread's tool result
 *   carries the agentId that links them. `agent-acompact-*` files are the compaction summariser's
 *   own transcript: not a user-visible sub-agent, so they give no thread.
 */
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ImportedUsage, type NumberedLine, type ParsedSource, type SkippedEntry } from "./types";
import { collapse } from "./text";

export type ClaudeCodeSource = {
  /** File name (or path): `<sessionId>.jsonl`, `agent-<id>.jsonl`. */
  name: string;
};

/** Re-readable lines: called once per pass. */
export type LineSupply = () => Iterable<NumberedLine> | AsyncIterable<NumberedLine>;

type EntryKind = "prompt" | "user" | "tool-result" | "assistant" | "compact-boundary" | "compact-summary" | "system" | "meta" | "chain-only";

/** What the first pass keeps of each entry. */
type Skeleton = {
  uuid: string;
  parent: string | null;
  line: number;
  kind: EntryKind;
  time: number;
  sidechain: boolean;
};

type ThreadPlan = {
  thread: Omit<ImportedThread, "turns">;
  /** Lines (1-based) whose entries make this thread's turns, ascending. */
  lines: Set<number>;
};

type Plan = {
  threads: ThreadPlan[];
  skipped: SkippedEntry[];
  warnings: string[];
};

const UUID_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const AGENT_NAME = /(?:^|[\\/])agent-([\w-]+)\.jsonl$/i;

/** A cheap check on the first parsed line and the file name. */
export function looksLikeClaudeCode(firstLine: unknown, fileName: string): boolean {
  if (!isObject(firstLine)) return false;
  const type = firstLine.type;
  if (typeof type !== "string") return false;
  if (["summary", "file-history-snapshot", "queue-operation", "custom-title", "ai-title", "last-prompt"].includes(type)) return true;
  if (["user", "assistant", "system", "progress"].includes(type)) return "sessionId" in firstLine || "uuid" in firstLine || /\.jsonl$/i.test(fileName);
  return false;
}

/** Whole-file convenience: both passes over an in-memory list of lines. */
export async function parseClaudeCodeSession(lines: NumberedLine[] | LineSupply, source: ClaudeCodeSource): Promise<ParsedSource> {
  const supply: LineSupply = typeof lines === "function" ? lines : () => lines;
  const plan = await planClaudeCodeSession(supply, source);
  const threads: ImportedThread[] = plan.threads.map((p) => ({ ...p.thread, turns: [] }));
  for await (const { threadIndex, turn } of claudeCodeTurns(supply, plan)) threads[threadIndex]!.turns.push(turn);
  return { format: "claude-code", threads: threads.filter((t) => t.turns.length > 0 || t.relation == null), skipped: plan.skipped, warnings: plan.warnings };
}

function parseLine(text: string): unknown {
  return JSON.parse(text) as unknown;
}

function timeOf(entry: Record<string, JsonValue>): number {
  const t = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
}

function messageOf(entry: Record<string, JsonValue>): Record<string, JsonValue> | null {
  return isObject(entry.message) ? entry.message : null;
}

/** Wrappers Claude Code puts around what is not a typed prompt. */
const NOT_A_PROMPT = /^\s*<(command-name|command-message|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|task-notification|system-reminder)>/;

function userText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isObject(part) && part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n\n");
}

function classify(entry: Record<string, JsonValue>): EntryKind | null {
  switch (entry.type) {
    case "user": {
      const message = messageOf(entry);
      if (!message) return null;
      if (entry.isCompactSummary === true) return "compact-summary";
      if (entry.isMeta === true) return "meta";
      const content = message.content;
      if (Array.isArray(content) && content.some((p) => isObject(p) && p.type === "tool_result")) return "tool-result";
      const text = userText(content);
      return text.trim() && !NOT_A_PROMPT.test(text) ? "prompt" : "user";
    }
    case "assistant":
      return messageOf(entry) ? "assistant" : null;
    case "system":
      if (entry.subtype === "compact_boundary") return "compact-boundary";
      return entry.subtype === "local_command" || entry.subtype === "api_error" ? "system" : "chain-only";
    case "progress":
    case "attachment":
      return "chain-only";
    default:
      return null;
  }
}

/**
 * Entries that become turns. Meta entries (command expansions, caveats) are hidden in Claude
 * Code's UI but were sent to the model, so they are kept, marked meta.
 */
const CONVERSATIONAL: ReadonlySet<EntryKind> = new Set(["prompt", "user", "meta", "tool-result", "assistant", "compact-boundary", "compact-summary", "system"]);


/** First pass: skeletons, titles, metadata, and which line goes to which thread. */
export async function planClaudeCodeSession(supply: LineSupply, source: ClaudeCodeSource): Promise<Plan> {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
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
  const taskCalls: { id: string; prompt: string; taken: boolean }[] = [];
  /** Sidechain roots' prompts, by root uuid. */
  const sidechainPrompts = new Map<string, string>();
  let lastLine = 0;
  let pendingBad: SkippedEntry | null = null;
  const agentFile = AGENT_NAME.exec(source.name);

  for await (const { text, line } of supply()) {
    lastLine = line;
    if (!text.trim()) continue;
    if (pendingBad) skipped.push(pendingBad);
    pendingBad = null;
    let entry: unknown;
    try {
      entry = parseLine(text);
    } catch {
      pendingBad = { line, reason: "not valid JSON" };
      continue;
    }
    if (!isObject(entry)) {
      skipped.push({ line, reason: "not a JSON object" });
      continue;
    }
    anyEntry = true;
    const type = entry.type;
    if (type === "summary") {
      if (typeof entry.summary === "string" && typeof entry.leafUuid === "string") summaries.set(entry.leafUuid, entry.summary);
      continue;
    }
    if (type === "custom-title" && typeof entry.customTitle === "string") customTitle = entry.customTitle;
    if (type === "ai-title" && typeof entry.aiTitle === "string") aiTitle = entry.aiTitle;
    if (type === "last-prompt" && typeof entry.leafUuid === "string") lastPromptLeaf = entry.leafUuid;
    const kind = classify(entry);
    if (kind === null) {
      if ((type === "user" || type === "assistant") && !messageOf(entry)) skipped.push({ line, reason: `${type} entry without a message object` });
      continue;
    }
    if (typeof entry.uuid !== "string" || !entry.uuid) {
      if (kind !== "chain-only") skipped.push({ line, reason: "uuid: missing" });
      continue;
    }
    if (nodes.has(entry.uuid)) continue; // a resumed session's copy: the first one wins
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
    if (kind === "prompt" && (!sidechain || agentFile) && firstPromptText === null) firstPromptText = userText(message?.content);
    if (kind === "user" && !sidechain && firstCommand === null) {
      const command = /<command-name>([^<]*)<\/command-name>/.exec(userText(message?.content));
      const args = /<command-args>([^<]*)<\/command-args>/.exec(userText(message?.content));
      if (command?.[1]) firstCommand = `${command[1].trim()}${args?.[1]?.trim() ? ` ${args[1].trim()}` : ""}`;
    }
    if (kind === "assistant" && Array.isArray(message?.content)) {
      for (const part of message.content) {
        if (isObject(part) && part.type === "tool_use" && (part.name === "Task" || part.name === "Agent") && typeof part.id === "string" && isObject(part.input)) {
          taskCalls.push({ id: part.id, prompt: typeof part.input.prompt === "string" ? part.input.prompt : "", taken: false });
        }
      }
    }
    if (sidechain && !parent && (kind === "prompt" || kind === "user")) sidechainPrompts.set(entry.uuid, userText(message?.content));
  }
  if (pendingBad) {
    // A last line cut short is what a live session's file looks like: skip it, say so.
    skipped.push(pendingBad.line === lastLine ? { line: pendingBad.line, reason: "truncated last line (the session may still be running)" } : pendingBad);
  }
  if (!anyEntry) throw new ImportFormatError("no Claude Code entries: the file is empty or holds no JSON objects");
  if (nodes.size === 0) throw new ImportFormatError("no Claude Code conversation entries (user, assistant or system) in the file");

  const fileName = source.name.split(/[\\/]/).pop() ?? source.name;
  if (agentFile?.[1]?.startsWith("acompact")) {
    return { threads: [], skipped, warnings: [...warnings, `${fileName} is the compaction summariser's transcript, not a conversation: nothing imported from it`] };
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

  const title = customTitle ?? aiTitle ?? [...summaries.entries()].filter(([leafUuid]) => nodes.has(leafUuid)).map(([, s]) => s).pop() ?? (firstPromptText ? collapse(firstPromptText) : firstCommand ? collapse(firstCommand) : null);
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
    thread: { key: sessionKey, title, toolName: "claude-code", project, createdAt: iso(firstTime), lastUpdatedAt: iso(lastTime), metadata },
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
    const call = taskCalls.find((c) => !c.taken && c.prompt && c.prompt.trim() === prompt.trim()) ?? taskCalls.find((c) => !c.taken);
    if (call) call.taken = true;
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

// --- second pass: entries to turns -------------------------------------------------------------

function toolResultText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : JSON.stringify(content);
  return content
    .map((part) => {
      if (!isObject(part)) return "";
      if (part.type === "text" && typeof part.text === "string") return part.text;
      if (part.type === "image") return "[image]";
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

function imagePart(part: Record<string, JsonValue>): TurnPart {
  const src = isObject(part.source) ? part.source : {};
  const mediaType = typeof src.media_type === "string" ? src.media_type : undefined;
  return { type: "image", ...(mediaType ? { mediaType } : {}), alt: "image pasted into the session" };
}

/** One line of a tool call for the readable text: name and compact arguments, cut short. */
function callLine(name: string, input: JsonValue | undefined): string {
  const args = input === undefined ? "" : JSON.stringify(input);
  return `[${name}] ${args.length > 300 ? `${args.slice(0, 300)}…` : args}`;
}

function usageOf(message: Record<string, JsonValue>): ImportedUsage | null {
  const u = isObject(message.usage) ? message.usage : null;
  if (!u) return null;
  const n = (v: JsonValue | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const usage: ImportedUsage = {
    inputTokens: n(u.input_tokens),
    cacheWriteTokens: n(u.cache_creation_input_tokens),
    cacheReadTokens: n(u.cache_read_input_tokens),
    outputTokens: n(u.output_tokens),
  };
  return Object.values(usage).some((v) => v !== undefined) ? usage : null;
}

/** Field by field, the larger count: a later copy of a streamed response's usage supersedes an earlier one. */
function latestUsage(earlier: ImportedUsage, later: ImportedUsage | null): ImportedUsage {
  if (!later) return earlier;
  const max = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
  return {
    inputTokens: max(earlier.inputTokens, later.inputTokens),
    cacheWriteTokens: max(earlier.cacheWriteTokens, later.cacheWriteTokens),
    cacheReadTokens: max(earlier.cacheReadTokens, later.cacheReadTokens),
    outputTokens: max(earlier.outputTokens, later.outputTokens),
  };
}

type OpenTurn = { turn: ImportedTurn; messageId: string | null; texts: string[] };

/** An assistant turn still taking blocks, and the tool results that arrived since. */
type Pending = { assistant: OpenTurn; after: ImportedTurn[] };

/**
 * Second pass: the planned threads' turns, in file order per thread. 2.x writes each content
 * block of one API message on its own line, and with parallel tool calls a tool's result can come
 * before the message's next block: all blocks of one message make one assistant turn, followed by
 * the results that arrived meanwhile. Usage counts once per message id and request id.
 */
export async function* claudeCodeTurns(supply: LineSupply, plan: Plan): AsyncGenerator<{ threadIndex: number; turn: ImportedTurn }> {
  const threadOfLine = new Map<number, number>();
  plan.threads.forEach((p, index) => {
    for (const line of p.lines) threadOfLine.set(line, index);
  });
  const pending = new Map<number, Pending>();
  const countedUsage = new Set<string>();
  const pendingSummary = new Map<number, ImportedTurn>(); // thread -> compaction turn waiting for its summary

  const flush = function* (threadIndex: number): Generator<{ threadIndex: number; turn: ImportedTurn }> {
    const current = pending.get(threadIndex);
    if (!current) return;
    pending.delete(threadIndex);
    current.assistant.turn.content = current.assistant.texts.join("\n\n");
    yield { threadIndex, turn: current.assistant.turn };
    for (const turn of current.after) yield { threadIndex, turn };
  };

  for await (const { text, line } of supply()) {
    const threadIndex = threadOfLine.get(line);
    if (threadIndex === undefined) continue;
    let entry: Record<string, JsonValue>;
    try {
      const parsed = parseLine(text);
      if (!isObject(parsed)) continue;
      entry = parsed;
    } catch {
      continue; // reported by the first pass
    }
    const kind = classify(entry);
    const message = messageOf(entry);
    const timestamp = typeof entry.timestamp === "string" ? new Date(timeOf(entry) || 0).toISOString() : null;
    const key = String(entry.uuid);

    if (kind === "assistant" && message) {
      const messageId = typeof message.id === "string" ? message.id : null;
      const current = pending.get(threadIndex);
      let target = current && current.assistant.messageId !== null && current.assistant.messageId === messageId ? current.assistant : null;
      if (!target) {
        yield* flush(threadIndex);
        const model = typeof message.model === "string" ? message.model : null;
        const synthetic = model === "<synthetic>";
        const usageKey = `${messageId ?? key}|${typeof entry.requestId === "string" ? entry.requestId : ""}`;
        const usage = synthetic || countedUsage.has(usageKey) ? null : usageOf(message);
        if (usage) countedUsage.add(usageKey);
        target = {
          turn: {
            key,
            role: "assistant",
            content: "",
            parts: [],
            timestamp,
            modelProvider: "anthropic",
            modelName: synthetic ? null : model,
            usage,
            metadata: {
              ...(messageId ? { messageId } : {}),
              ...(typeof entry.requestId === "string" ? { requestId: entry.requestId } : {}),
              ...(synthetic ? { synthetic: true } : {}),
              ...(typeof message.stop_reason === "string" ? { stopReason: message.stop_reason } : {}),
            },
          },
          messageId,
          texts: [],
        };
        pending.set(threadIndex, { assistant: target, after: [] });
      } else if (target.turn.usage) {
        // Each line of a streamed response repeats its usage as it stood then: output grows from
        // the first block's few tokens to the final count. The response's usage is the latest.
        target.turn.usage = latestUsage(target.turn.usage, usageOf(message));
      }
      const content = message.content;
      const blocks = typeof content === "string" ? [{ type: "text", text: content } as Record<string, JsonValue>] : Array.isArray(content) ? content : [];
      for (const block of blocks) {
        if (!isObject(block)) continue;
        if (block.type === "text" && typeof block.text === "string") {
          target.turn.parts!.push({ type: "text", text: block.text });
          target.texts.push(block.text);
        } else if (block.type === "thinking" && typeof block.thinking === "string") {
          target.turn.parts!.push({ type: "thinking", text: block.thinking });
        } else if (block.type === "redacted_thinking") {
          target.turn.parts!.push({ type: "thinking", text: "[redacted thinking]", redacted: true });
        } else if (block.type === "tool_use" && typeof block.id === "string") {
          const name = typeof block.name === "string" ? block.name : "tool";
          target.turn.parts!.push({ type: "tool_call", id: block.id, name, ...(block.input !== undefined ? { arguments: block.input } : {}) });
          target.texts.push(callLine(name, block.input));
        } else if (block.type === "image") {
          target.turn.parts!.push(imagePart(block));
          target.texts.push("[image]");
        }
      }
      continue;
    }

    if (kind !== "tool-result") yield* flush(threadIndex);
    if (kind === "compact-boundary") {
      const meta = isObject(entry.compactMetadata) ? entry.compactMetadata : {};
      const turn: ImportedTurn = {
        key,
        role: "system",
        content: typeof entry.content === "string" ? entry.content : "Conversation compacted",
        timestamp,
        compaction: {
          trigger: typeof meta.trigger === "string" ? meta.trigger : null,
          tokensBefore: typeof meta.preTokens === "number" ? meta.preTokens : null,
          tokensAfter: typeof meta.postTokens === "number" ? meta.postTokens : null,
        },
      };
      pendingSummary.set(threadIndex, turn);
      // Held until the summary entry arrives (next line as a rule), so the marker carries it.
      continue;
    }
    const waiting = pendingSummary.get(threadIndex);
    if (waiting) {
      pendingSummary.delete(threadIndex);
      if (kind === "compact-summary" && message) {
        waiting.content = userText(message.content);
        waiting.metadata = { summaryUuid: key };
        yield { threadIndex, turn: waiting };
        continue;
      }
      yield { threadIndex, turn: waiting };
    }
    if (kind === "compact-summary" && message) {
      // A summary without its boundary (cut from the file): still a compaction marker.
      yield { threadIndex, turn: { key, role: "system", content: userText(message.content), timestamp, compaction: { trigger: null, tokensBefore: null, tokensAfter: null } } };
      continue;
    }
    if (kind === "tool-result" && message && Array.isArray(message.content)) {
      const parts: TurnPart[] = [];
      const texts: string[] = [];
      const toolUseResult = isObject(entry.toolUseResult) ? entry.toolUseResult : null;
      for (const block of message.content) {
        if (!isObject(block)) continue;
        if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          const resultText = toolResultText(block.content);
          parts.push({
            type: "tool_result",
            toolCallId: block.tool_use_id,
            content: resultText,
            ...(block.is_error === true ? { isError: true } : {}),
            ...(toolUseResult && typeof toolUseResult.agentId === "string" ? { agentId: toolUseResult.agentId } : {}),
          });
          texts.push(resultText);
        } else if (block.type === "text" && typeof block.text === "string") {
          parts.push({ type: "text", text: block.text });
          texts.push(block.text);
        } else if (block.type === "image") {
          parts.push(imagePart(block));
          texts.push("[image]");
        }
      }
      const turn: ImportedTurn = { key, role: "tool", content: texts.join("\n\n"), parts, timestamp };
      const current = pending.get(threadIndex);
      if (current) current.after.push(turn);
      else yield { threadIndex, turn };
      continue;
    }
    if ((kind === "prompt" || kind === "user" || kind === "meta") && message) {
      const content = message.content;
      const parts: TurnPart[] = [];
      if (Array.isArray(content)) {
        for (const block of content) {
          if (!isObject(block)) continue;
          if (block.type === "text" && typeof block.text === "string") parts.push({ type: "text", text: block.text });
          else if (block.type === "image") parts.push(imagePart(block));
        }
      }
      const images = parts.filter((p) => p.type === "image").length;
      const textContent = userText(content) + (images > 0 ? `${userText(content) ? "\n\n" : ""}${"[image]\n".repeat(images).trim()}` : "");
      yield {
        threadIndex,
        turn: {
          key,
          role: "user",
          content: textContent,
          ...(images > 0 ? { parts } : {}),
          timestamp,
          ...(kind === "user" ? { metadata: { command: true } } : kind === "meta" ? { metadata: { meta: true } } : {}),
        },
      };
      continue;
    }
    if (kind === "system") {
      const content = typeof entry.content === "string" ? entry.content : String(entry.subtype ?? "system");
      yield { threadIndex, turn: { key, role: "system", content, timestamp, metadata: { subtype: String(entry.subtype ?? "") } } };
    }
  }
  for (const threadIndex of [...pending.keys()]) yield* flush(threadIndex);
  for (const [threadIndex, turn] of pendingSummary) yield { threadIndex, turn };
}
