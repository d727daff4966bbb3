/**
 * ChatGPT data export, `conversations.json` (FORMATS.md section 4): one JSON array of
 * conversations, each a tree of messages (`mapping`: node id -> {message, parent, children}).
 * Pure: the caller supplies the parsed JSON.
 *
 * How a conversation becomes threads:
 * - The main thread is the path from the root to `current_node` (what the ChatGPT UI shows).
 *   Without a usable `current_node` the newest leaf (rule below) stands in, with a warning.
 * - Every other branch becomes a fork thread. For each node on a thread's path, each child NOT
 *   on that path starts a fork: the path from that child down to its newest leaf. (In a
 *   well-formed tree that is every other child of a node with several children, plus the
 *   children of a `current_node` that is not a leaf.) Newest leaf = the leaf whose message has
 *   the greatest create_time (update_time if it has none; a leaf without either inherits the
 *   time of its nearest timed ancestor below the fork point); on a tie the later one in
 *   `children` order wins (ChatGPT appends new branches).
 *   Forks of forks are found the same way, breadth first, so direct alternatives of the main
 *   thread come first; at most MAX_FORKS_PER_CONVERSATION forks per conversation (warning).
 *   A fork whose path has no visible message (an empty regenerate placeholder) is dropped.
 * - relation.atTurnKey = the last visible turn of the parent thread at or before the branching
 *   node (the branching node's own turn as a rule), null when the parent thread shows nothing
 *   before it (e.g. the first prompt was edited: the branch point is the hidden root).
 *
 * Which messages become turns (one turn per node, turn key = node id):
 * - Nodes without a message (the root), messages flagged
 *   `metadata.is_visually_hidden_from_conversation`, unknown author roles, and messages whose
 *   rendering is empty (the empty system message under the root, empty assistant placeholders)
 *   give no turn. A tool call always gives a turn, even with empty arguments.
 * - Content types that ChatGPT never shows as a message give no turn: `user_editable_context`
 *   (custom instructions injected as context), `model_editable_context` (the memory context),
 *   `app_pairing_content` (context from paired desktop apps).
 * - Rendering per content type: `text` parts joined; `code` as a fenced block (language kept,
 *   "unknown" dropped); `multimodal_text` text parts, `image_asset_pointer` -> image part (alt from
 *   the DALL-E prompt or attachment name, media type from the message's attachments; the asset
 *   pointer is kept as a reference, never any data), `audio_transcription` -> text, audio assets ->
 *   "[audio]" in content only; `thoughts` -> one thinking part per thought; `reasoning_recap`
 *   ("Thought for 8 seconds") -> thinking part; `execution_output` -> its text;
 *   `tether_browsing_display` -> summary + result; `tether_quote` -> "Quote from <title> <url>" +
 *   text; `sonic_webpage` -> title, url, text; `system_error` -> "<name>: <text>" (an error
 *   result). Unknown content types keep whatever text they carry (`parts`, `text`, `result`,
 *   `content`) and are dropped silently when they carry none.
 * - A turn made only of thinking (a `thoughts` / `reasoning_recap` node) has the thinking as its
 *   content, so the turn is not blank and stays searchable.
 *
 * Tool calls: an assistant message whose `recipient` is not "all" is a call to that tool
 * (tool_call part, id = message id, name = recipient, arguments = its text, parsed when it is a
 * JSON object or array). There are no call ids in the export, so results pair by adjacency: every
 * tool-role message that follows a call with only tool messages (or invisible nodes) in between
 * carries a tool_result part for it. One call can have several results (the browser's quote()
 * lines each answer separately). A tool message with no open call keeps a plain text part.
 * Since a node's ancestors are the same in every thread, the pairing state of each node is
 * computed once, top down.
 *
 * No token usage exists in this format.
 */
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ParsedSource, type SkippedEntry, type ThreadRelation } from "./types";

export type ChatGptSource = {
  /** File name, for messages only (`conversations.json`). */
  name: string;
};

/** Cap on fork threads per conversation: an export can hold hundreds of regenerations. */
export const MAX_FORKS_PER_CONVERSATION = 100;

/** Content types ChatGPT uses for context it never displays as a message. */
const INVISIBLE_CONTENT_TYPES: ReadonlySet<string> = new Set(["user_editable_context", "model_editable_context", "app_pairing_content"]);

type Json = Record<string, JsonValue>;

type MappingNode = {
  id: string;
  parent: string | null;
  children: string[];
  message: Json | null;
};

type OpenCall = { id: string; name: string };

/** A node, converted once: its turn (if visible) and the tool call still open after it. */
type ConvertedNode = { turn: ImportedTurn | null; openCallAfter: OpenCall | null };

type Rendered = { text: string; parts: TurnPart[] };

// --- detection ------------------------------------------------------------------------------

function isConversationLike(value: unknown): value is Json {
  return isObject(value) && isObject(value.mapping);
}

/** A cheap check on the parsed document and the file name. */
export function looksLikeChatGptExport(doc: unknown, fileName: string): boolean {
  if (Array.isArray(doc)) {
    if (doc.length === 0) return /(^|[\\/])conversations\.json$/i.test(fileName);
    const first = doc[0];
    return isConversationLike(first) && ("current_node" in first || "create_time" in first || "title" in first);
  }
  return isConversationLike(doc) && "current_node" in doc;
}

// --- small helpers ---------------------------------------------------------------------------

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function nonEmpty(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Unix seconds (float) to milliseconds, or null. */
function secondsToMs(value: JsonValue | undefined): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const ms = value * 1000;
  return Number.isFinite(new Date(ms).getTime()) ? ms : null;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function collapse(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A fence longer than any backtick run inside the code, so the block cannot end early. */
function fenced(code: string, language: string | null): string {
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  const lang = language && language !== "unknown" ? language : "";
  return `${fence}${lang}\n${code}\n${fence}`;
}

/** Tool arguments: parsed when the text is a JSON object or array, else the raw text. */
function toolArguments(raw: string): JsonValue {
  const trimmed = raw.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return raw;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return raw;
  }
}

function pathOf(prefix: string, nodeId: string, rest = ""): string {
  return `${prefix}.mapping[${JSON.stringify(nodeId)}]${rest}`;
}

// --- content rendering -----------------------------------------------------------------------

function textOf(text: string): Rendered {
  return text.trim() ? { text, parts: [{ type: "text", text }] } : { text: "", parts: [] };
}

function joinRendered(pieces: Rendered[]): Rendered {
  return { text: pieces.map((p) => p.text).filter((t) => t.trim() !== "").join("\n\n"), parts: pieces.flatMap((p) => p.parts) };
}

function stringParts(content: Json): string[] {
  return Array.isArray(content.parts) ? content.parts.filter((p): p is string => typeof p === "string" && p.trim() !== "") : [];
}

type Attachment = { id: string | null; name: string | null; mimeType: string | null; size: number | null };

function attachmentsOf(metadata: Json): Attachment[] {
  if (!Array.isArray(metadata.attachments)) return [];
  return metadata.attachments.filter(isObject).map((a) => ({
    id: str(a.id),
    name: str(a.name),
    mimeType: str(a.mime_type) ?? str(a.mimeType),
    size: typeof a.size === "number" ? a.size : null,
  }));
}

function imagePart(pointer: Json, role: string, attachments: Attachment[]): { part: TurnPart; label: string } {
  const assetPointer = str(pointer.asset_pointer);
  // "file-service://file-abc" / "sediment://file_abc": the id after the scheme names the attachment.
  const assetId = assetPointer ? assetPointer.replace(/^[a-z-]+:\/\//i, "") : null;
  const attachment = assetId ? attachments.find((a) => a.id === assetId) : undefined;
  const meta = isObject(pointer.metadata) ? pointer.metadata : {};
  const dalle = isObject(meta.dalle) ? meta.dalle : {};
  const prompt = nonEmpty(dalle.prompt);
  const alt = prompt ? `generated image: ${collapse(prompt, 300)}` : attachment?.name ? attachment.name : role === "user" ? "image uploaded by the user" : "image";
  const part: TurnPart = {
    type: "image",
    alt,
    ...(attachment?.mimeType ? { mediaType: attachment.mimeType } : {}),
    ...(assetPointer ? { assetPointer } : {}),
    ...(typeof pointer.width === "number" ? { width: pointer.width } : {}),
    ...(typeof pointer.height === "number" ? { height: pointer.height } : {}),
  };
  return { part, label: `[image: ${alt}]` };
}

function renderMultimodal(content: Json, role: string, attachments: Attachment[]): Rendered {
  const pieces: Rendered[] = [];
  for (const part of Array.isArray(content.parts) ? content.parts : []) {
    if (typeof part === "string") {
      pieces.push(textOf(part));
      continue;
    }
    if (!isObject(part)) continue;
    switch (part.content_type) {
      case "image_asset_pointer": {
        const { part: image, label } = imagePart(part, role, attachments);
        pieces.push({ text: label, parts: [image] });
        break;
      }
      case "audio_asset_pointer":
        pieces.push({ text: "[audio]", parts: [] });
        break;
      case "real_time_user_audio_video_asset_pointer":
        pieces.push({ text: "[audio/video]", parts: [] });
        break;
      default: {
        // audio_transcription and unknown part types: their text, if any.
        const text = nonEmpty(part.text);
        if (text) pieces.push(textOf(text));
      }
    }
  }
  return joinRendered(pieces);
}

function renderThoughts(content: Json): Rendered {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  for (const thought of Array.isArray(content.thoughts) ? content.thoughts : []) {
    if (!isObject(thought)) continue;
    const summary = nonEmpty(thought.summary);
    const body = nonEmpty(thought.content);
    if (!summary && !body) continue;
    parts.push({ type: "thinking", text: body ?? summary!, ...(summary ? { summary } : {}) });
    texts.push([summary, body].filter(Boolean).join("\n\n"));
  }
  return { text: texts.join("\n\n"), parts };
}

/** Whatever text an unknown content type carries. */
function renderUnknown(content: Json): string {
  const fromParts = stringParts(content).join("\n\n");
  if (fromParts.trim()) return fromParts;
  return nonEmpty(content.text) ?? nonEmpty(content.result) ?? nonEmpty(content.content) ?? "";
}

/** The readable body of a message (tool calls are handled by the caller). */
function renderContent(content: Json, role: string, attachments: Attachment[]): Rendered {
  switch (content.content_type) {
    case "text":
      return joinRendered(stringParts(content).map(textOf));
    case "code": {
      const code = str(content.text) ?? "";
      return code.trim() ? textOf(fenced(code, str(content.language))) : { text: "", parts: [] };
    }
    case "multimodal_text":
      return renderMultimodal(content, role, attachments);
    case "thoughts":
      return renderThoughts(content);
    case "reasoning_recap": {
      const recap = nonEmpty(content.content);
      return recap ? { text: recap, parts: [{ type: "thinking", text: recap, recap: true }] } : { text: "", parts: [] };
    }
    case "execution_output":
      return textOf(str(content.text) ?? "");
    case "tether_browsing_display":
      return textOf([nonEmpty(content.summary), nonEmpty(content.result)].filter(Boolean).join("\n\n"));
    case "tether_quote": {
      const source = nonEmpty(content.title) ?? nonEmpty(content.domain);
      const url = nonEmpty(content.url);
      const header = source || url ? `Quote from ${[source, url ? `<${url}>` : null].filter(Boolean).join(" ")}:` : null;
      return textOf([header, nonEmpty(content.text)].filter(Boolean).join("\n"));
    }
    case "sonic_webpage":
      return textOf([nonEmpty(content.title), nonEmpty(content.url), nonEmpty(content.text) ?? nonEmpty(content.snippet)].filter(Boolean).join("\n"));
    case "system_error":
      return textOf([nonEmpty(content.name), nonEmpty(content.text)].filter(Boolean).join(": "));
    default:
      return textOf(renderUnknown(content));
  }
}

/** The raw text of a tool call's arguments. */
function callText(content: Json): string {
  if (content.content_type === "code" || content.content_type === "execution_output") return str(content.text) ?? "";
  return renderUnknown(content);
}

// --- one node -> one turn --------------------------------------------------------------------

type NodeContext = { prefix: string; skipped: SkippedEntry[] };

function messageTime(message: Json): number | null {
  return secondsToMs(message.create_time) ?? secondsToMs(message.update_time);
}

function convertNode(node: MappingNode, openCallBefore: OpenCall | null, ctx: NodeContext): ConvertedNode {
  // Invisible nodes leave an open tool call open: they sit between a call and its result.
  const hidden: ConvertedNode = { turn: null, openCallAfter: openCallBefore };
  const message = node.message;
  if (!message) return hidden;
  const time = messageTime(message);
  const author = isObject(message.author) ? message.author : null;
  const role = author ? str(author.role) : null;
  if (!role) {
    ctx.skipped.push({ path: pathOf(ctx.prefix, node.id, ".message.author.role"), reason: "author.role is missing or not a string" });
    return hidden;
  }
  if (role !== "user" && role !== "assistant" && role !== "system" && role !== "tool") return hidden; // unknown role: tolerated
  const metadata = isObject(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) return hidden;
  const content = isObject(message.content) ? message.content : null;
  if (!content) {
    ctx.skipped.push({ path: pathOf(ctx.prefix, node.id, ".message.content"), reason: "content is missing or not an object" });
    return hidden;
  }
  const contentType = str(content.content_type) ?? "unknown";
  if (INVISIBLE_CONTENT_TYPES.has(contentType)) return hidden;

  const messageId = str(message.id) ?? node.id;
  const recipient = str(message.recipient);
  const attachments = attachmentsOf(metadata);
  const turnMetadata = messageMetadata(message, metadata, contentType, messageId, node.id, attachments);
  const base = { key: node.id, timestamp: iso(time), ...(Object.keys(turnMetadata).length ? { metadata: turnMetadata } : {}) };

  if (role === "assistant" && recipient !== null && recipient !== "all") {
    // A call to the tool named by the recipient; its result comes in the next tool message(s).
    const raw = callText(content);
    const call: TurnPart = { type: "tool_call", id: messageId, name: recipient, arguments: toolArguments(raw) };
    const shown = contentType === "code" ? fenced(raw, str(content.language)) : raw;
    const turn: ImportedTurn = {
      ...base,
      role: "assistant",
      content: raw.trim() ? `[${recipient}]\n${shown}` : `[${recipient}]`,
      parts: [call],
      modelProvider: "openai",
      modelName: str(metadata.model_slug),
    };
    return { turn, openCallAfter: { id: messageId, name: recipient } };
  }

  const rendered = renderContent(content, role, attachments);
  const empty = !rendered.text.trim() && rendered.parts.length === 0;

  if (role === "tool") {
    const toolName = author ? str(author.name) : null;
    if (openCallBefore) {
      // Even an empty answer is the call's result (python code that printed nothing).
      const isError = contentType === "system_error" || metadata.status === "failed";
      const result: TurnPart = { type: "tool_result", toolCallId: openCallBefore.id, content: rendered.text, ...(isError ? { isError: true } : {}) };
      const others = rendered.parts.filter((p) => p.type !== "text");
      const turn: ImportedTurn = { ...base, role: "tool", content: empty ? "(no output)" : rendered.text, parts: [result, ...others], toolName };
      return { turn, openCallAfter: openCallBefore };
    }
    if (empty) return hidden;
    return { turn: { ...base, role: "tool", content: rendered.text, parts: rendered.parts, toolName }, openCallAfter: null };
  }

  if (empty) return hidden; // the empty system message under the root, empty placeholders

  const turn: ImportedTurn = {
    ...base,
    role,
    content: rendered.text,
    parts: rendered.parts,
    ...(role === "assistant" ? { modelProvider: "openai", modelName: str(metadata.model_slug) } : {}),
  };
  return { turn, openCallAfter: null };
}

/** What is worth keeping of a message beyond its content. */
function messageMetadata(message: Json, metadata: Json, contentType: string, messageId: string, nodeId: string, attachments: Attachment[]): JsonObject {
  const out: JsonObject = { contentType };
  if (messageId !== nodeId) out.messageId = messageId;
  const status = str(message.status);
  if (status && status !== "finished_successfully") out.status = status;
  const finish = isObject(metadata.finish_details) ? str(metadata.finish_details.type) : null;
  if (finish) out.finishReason = finish;
  if (typeof message.weight === "number" && message.weight !== 1) out.weight = message.weight;
  const channel = str(message.channel) ?? str(metadata.channel);
  if (channel) out.channel = channel;
  const command = str(metadata.command);
  if (command) out.command = command;
  if (isObject(metadata.invoked_plugin)) {
    const namespace = str(metadata.invoked_plugin.namespace);
    if (namespace) out.plugin = namespace;
  }
  if (attachments.length) {
    out.attachments = attachments.map((a) => ({ name: a.name, mimeType: a.mimeType, size: a.size }));
  }
  const gizmo = str(metadata.gizmo_id);
  if (gizmo) out.gizmoId = gizmo;
  return out;
}

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
function pathToNewestLeaf(nodes: Map<string, MappingNode>, start: string, exclude: ReadonlySet<string>, timeOf: (id: string) => number | null): string[] {
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
  if (Array.isArray(conversation.plugin_ids) && conversation.plugin_ids.length) out.pluginIds = conversation.plugin_ids.filter((p) => typeof p === "string");
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

function parseConversation(conversation: Json, key: string, prefix: string, skipped: SkippedEntry[]): ConversationResult {
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
    warnings.push(`conversation ${key}: current_node ${currentNode ? `"${currentNode}" is not in the mapping` : "is missing"}; showing the newest branch`);
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
          warnings.push(`conversation ${key}: more than ${MAX_FORKS_PER_CONVERSATION} branches; only the first ${MAX_FORKS_PER_CONVERSATION} were imported as forks`);
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
          metadata: { ...forkMetadata, branchNodeId: branchId, forkNodeId: child, leafNodeId: own[own.length - 1]!, models: modelsOf(turns) },
          turns,
        });
        forkCount++;
        queue.push({ key: forkKey, fullPath, ownStart: i + 1 });
      }
    }
  }
  return { threads, warnings };
}

// --- the document ----------------------------------------------------------------------------

/** Parses a whole `conversations.json` (an array of conversations, or one conversation object). */
export function parseChatGptExport(doc: unknown, source: ChatGptSource): ParsedSource {
  const single = !Array.isArray(doc);
  if (single && !isConversationLike(doc)) {
    throw new ImportFormatError(`${source.name}: not a ChatGPT export: expected an array of conversations (objects with a "mapping" tree) or one such conversation`);
  }
  const conversations: unknown[] = Array.isArray(doc) ? doc : [doc];
  const result: ParsedSource = { format: "chatgpt", threads: [], skipped: [], warnings: [] };
  if (conversations.length === 0) {
    result.warnings.push(`${source.name}: the export holds no conversations`);
    return result;
  }
  if (!conversations.some(isConversationLike)) {
    throw new ImportFormatError(`${source.name}: not a ChatGPT export: no element of the array has a "mapping" object`);
  }

  const firstIndexOfKey = new Map<string, number>();
  conversations.forEach((conversation, index) => {
    const prefix = single ? "$" : `$[${index}]`;
    if (!isObject(conversation)) {
      result.skipped.push({ path: prefix, reason: "conversation is not an object" });
      return;
    }
    if (!isObject(conversation.mapping)) {
      result.skipped.push({ path: `${prefix}.mapping`, reason: "conversation has no mapping object" });
      return;
    }
    const key = nonEmpty(conversation.conversation_id) ?? nonEmpty(conversation.id);
    if (!key) {
      result.skipped.push({ path: prefix, reason: "conversation has neither conversation_id nor id (string)" });
      return;
    }
    const earlier = firstIndexOfKey.get(key);
    if (earlier !== undefined) {
      result.skipped.push({ path: prefix, reason: `duplicate conversation id ${key} (first at $[${earlier}]); the first copy is kept` });
      return;
    }
    firstIndexOfKey.set(key, index);
    const { threads, warnings } = parseConversation(conversation, key, prefix, result.skipped);
    result.threads.push(...threads);
    result.warnings.push(...warnings);
  });
  return result;
}
