// One conversation to threads: the current_node path, and a fork thread per other branch.
import type { JsonObject } from "@/lib/domain/types";
import { isObject, type ImportedThread, type ImportedTurn, type SkippedEntry, type ThreadRelation } from "../types";
import { NodeContext, convertNode, messageTime } from "./node";
import { collapse, iso, nonEmpty, pathOf, secondsToMs, str } from "./render";
import { ConvertedNode, Json, MAX_FORKS_PER_CONVERSATION, MappingNode } from "./shapes";

// --- one conversation -> threads -------------------------------------------------------------

type ConversationResult = { threads: ImportedThread[]; warnings: string[] };

function readMapping(mapping: Json, prefix: string, skipped: SkippedEntry[]): Map<string, MappingNode> {
  const nodes = new Map<string, MappingNode>();
  for (const [id, raw] of Object.entries(mapping)) {
    if (!isObject(raw)) {
      skipped.push({ path: pathOf(prefix, id), reason: "mapping node is not an object" });
      continue;
    }
    let message: Json | null = null;
    if (isObject(raw.message)) message = raw.message;
    else if (raw.message != null) skipped.push({ path: pathOf(prefix, id, ".message"), reason: "message is not an object" });
    const children = Array.isArray(raw.children) ? raw.children.filter((c): c is string => typeof c === "string") : [];
    nodes.set(id, { id, parent: str(raw.parent), children: [...new Set(children)], message });
  }
  return nodes;
}

/** Root-to-node path by parent links (cycle-safe). */
function pathTo(nodes: Map<string, MappingNode>, nodeId: string): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  let current: string | null = nodeId;
  while (current !== null && nodes.has(current) && !seen.has(current)) {
    seen.add(current);
    path.push(current);
    current = nodes.get(current)!.parent;
  }
  return path.reverse();
}

/**
 * The path from `start` down to its newest leaf (see the file comment for the rule), following
 * `children`; nodes in `exclude` (the path above) are never entered, so a cyclic mapping ends.
 */
function pathToNewestLeaf(
  nodes: Map<string, MappingNode>,
  start: string,
  exclude: ReadonlySet<string>,
  timeOf: (id: string) => number | null,
): string[] {
  const seen = new Set<string>(exclude);
  const cameFrom = new Map<string, string>();
  const stack: { id: string; time: number }[] = [{ id: start, time: timeOf(start) ?? -Infinity }];
  seen.add(start);
  let best: { id: string; time: number } | null = null;
  // Depth first, children visited in order, so ">=" lets the later of two equal leaves win.
  while (stack.length) {
    const frame = stack.pop()!;
    const children = (nodes.get(frame.id)?.children ?? []).filter((c) => nodes.has(c) && !seen.has(c));
    if (children.length === 0) {
      if (!best || frame.time >= best.time) best = frame;
      continue;
    }
    for (const child of [...children].reverse()) {
      seen.add(child);
      cameFrom.set(child, frame.id);
      stack.push({ id: child, time: timeOf(child) ?? frame.time });
    }
  }
  const path: string[] = [];
  for (let id: string | undefined = best?.id ?? start; id !== undefined; id = cameFrom.get(id)) path.push(id);
  return path.reverse();
}

function conversationMetadata(conversation: Json, currentNode: string | null): JsonObject {
  const out: JsonObject = { defaultModelSlug: str(conversation.default_model_slug) };
  if (currentNode) out.currentNode = currentNode;
  const copy: [string, string][] = [
    ["conversation_template_id", "conversationTemplateId"],
    ["gizmo_id", "gizmoId"],
    ["gizmo_type", "gizmoType"],
    ["conversation_origin", "conversationOrigin"],
    ["memory_scope", "memoryScope"],
  ];
  for (const [from, to] of copy) {
    const value = str(conversation[from]);
    if (value) out[to] = value;
  }
  if (typeof conversation.is_archived === "boolean") out.isArchived = conversation.is_archived;
  if (typeof conversation.is_starred === "boolean") out.isStarred = conversation.is_starred;
  if (Array.isArray(conversation.plugin_ids) && conversation.plugin_ids.length)
    out.pluginIds = conversation.plugin_ids.filter((p) => typeof p === "string");
  return out;
}

function modelsOf(turns: ImportedTurn[]): string[] {
  return [...new Set(turns.map((t) => t.modelName).filter((m): m is string => typeof m === "string"))];
}

type PlannedThread = {
  key: string;
  /** Node ids from the conversation root to this thread's leaf. */
  fullPath: string[];
  /** Index in fullPath of this thread's first own node (0 for the main thread). */
  ownStart: number;
};

export function parseConversation(conversation: Json, key: string, prefix: string, skipped: SkippedEntry[]): ConversationResult {
  const warnings: string[] = [];
  const nodes = readMapping(conversation.mapping as Json, prefix, skipped);
  const ctx: NodeContext = { prefix, skipped };
  const converted = new Map<string, ConvertedNode>();
  const nodeTime = (id: string): number | null => {
    const message = nodes.get(id)?.message;
    return message ? messageTime(message) : null;
  };

  /** Converts the nodes of a root-first path in order; a node's parent comes first, so its state is known. */
  const turnsAlong = (path: string[], from: number): ImportedTurn[] => {
    path.forEach((id, index) => {
      if (converted.has(id)) return;
      const before = index > 0 ? (converted.get(path[index - 1]!)?.openCallAfter ?? null) : null;
      converted.set(id, convertNode(nodes.get(id)!, before, ctx));
    });
    return path.slice(from).flatMap((id) => {
      const turn = converted.get(id)?.turn;
      return turn ? [turn] : [];
    });
  };

  // The main thread: root to current_node, else to the newest leaf.
  const currentNode = str(conversation.current_node);
  let mainPath: string[];
  if (currentNode && nodes.has(currentNode)) {
    mainPath = pathTo(nodes, currentNode);
  } else {
    warnings.push(
      `conversation ${key}: current_node ${currentNode ? `"${currentNode}" is not in the mapping` : "is missing"}; showing the newest branch`,
    );
    const roots = [...nodes.values()].filter((n) => n.parent === null || !nodes.has(n.parent)).map((n) => n.id);
    const candidates = roots.map((root) => pathToNewestLeaf(nodes, root, new Set(), nodeTime));
    mainPath = candidates.reduce<string[]>((best, path) => {
      const time = (p: string[]) => Math.max(-Infinity, ...p.map((id) => nodeTime(id) ?? -Infinity));
      return best.length === 0 || time(path) >= time(best) ? path : best;
    }, []);
  }

  const title = nonEmpty(conversation.title);
  const metadata = conversationMetadata(conversation, currentNode);
  const mainTurns = turnsAlong(mainPath, 0);
  const fallbackTitle = mainTurns.find((t) => t.role === "user")?.content;
  const baseTitle = title ?? (fallbackTitle ? collapse(fallbackTitle, 100) : null);
  const turnTimes = (turns: ImportedTurn[]) => turns.map((t) => (t.timestamp ? Date.parse(t.timestamp) : NaN)).filter(Number.isFinite);
  const mainTimes = turnTimes(mainTurns);
  const threads: ImportedThread[] = [
    {
      key,
      title: baseTitle,
      toolName: "chatgpt",
      createdAt: iso(secondsToMs(conversation.create_time) ?? (mainTimes.length ? Math.min(...mainTimes) : null)),
      lastUpdatedAt: iso(secondsToMs(conversation.update_time) ?? (mainTimes.length ? Math.max(...mainTimes) : null)),
      metadata: { ...metadata, models: modelsOf(mainTurns) },
      turns: mainTurns,
    },
  ];

  // Forks, breadth first from the main thread. current_node describes the main thread only.
  const forkMetadata: JsonObject = { ...metadata };
  delete forkMetadata.currentNode;
  const queue: PlannedThread[] = [{ key, fullPath: mainPath, ownStart: 0 }];
  let forkCount = 0;
  let capped = false;
  for (let q = 0; q < queue.length && !capped; q++) {
    const parent = queue[q]!;
    const onPath = new Set(parent.fullPath);
    for (let i = parent.ownStart; i < parent.fullPath.length && !capped; i++) {
      const branchId = parent.fullPath[i]!;
      const next = parent.fullPath[i + 1];
      // Children not on the path: the other children of a branching node, and any children of
      // the path's last node (a current_node that is not a leaf).
      const alternatives = nodes.get(branchId)!.children.filter((c) => c !== next && nodes.has(c) && !onPath.has(c));
      for (const child of alternatives) {
        if (forkCount >= MAX_FORKS_PER_CONVERSATION) {
          warnings.push(
            `conversation ${key}: more than ${MAX_FORKS_PER_CONVERSATION} branches; only the first ${MAX_FORKS_PER_CONVERSATION} were imported as forks`,
          );
          capped = true;
          break;
        }
        const head = parent.fullPath.slice(0, i + 1);
        const own = pathToNewestLeaf(nodes, child, new Set(head), nodeTime);
        const fullPath = [...head, ...own];
        const turns = turnsAlong(fullPath, i + 1);
        if (turns.length === 0) continue; // an empty placeholder branch
        const atTurnKey =
          parent.fullPath
            .slice(parent.ownStart, i + 1)
            .reverse()
            .find((id) => converted.get(id)?.turn) ?? null;
        const forkKey = `${key}:fork:${child}`;
        const relation: ThreadRelation = { kind: "fork", atTurnKey };
        const times = turnTimes(turns);
        threads.push({
          key: forkKey,
          parentKey: parent.key,
          relation,
          title: `${baseTitle ?? "ChatGPT conversation"} — branch: ${collapse(turns[0]!.content, 60)}`,
          toolName: "chatgpt",
          createdAt: iso(times.length ? Math.min(...times) : null),
          lastUpdatedAt: iso(times.length ? Math.max(...times) : null),
          metadata: {
            ...forkMetadata,
            branchNodeId: branchId,
            forkNodeId: child,
            leafNodeId: own[own.length - 1]!,
            models: modelsOf(turns),
          },
          turns,
        });
        forkCount++;
        queue.push({ key: forkKey, fullPath, ownStart: i + 1 });
      }
    }
  }
  return { threads, warnings };
}
