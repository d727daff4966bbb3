/**
 * The tools a thread used, for the list's Tool filter: tool calls' names in its turns, the tool
 * names its turns carry, and the thread's own tool where it names one. Names are matched without
 * regard to case (Claude Code's Bash is Pi's bash) and listed once each. Pure.
 */
import type { JsonValue } from "../types";

/**
 * Sources whose thread tool name is a tool (PAL's chat, analyze...; whatever an API client
 * names). An imported agent session's is the agent itself ("claude-code"): the Agent filter's.
 */
const SOURCES_NAMING_A_TOOL = new Set(["api", "demo", "import:pal", "import:threadline"]);

/** Whether a thread's tool name is a tool (shown as "tool ..."), not the agent its source already names. */
export function namesATool(source: string): boolean {
  return SOURCES_NAMING_A_TOOL.has(source);
}

/** The key a tool name is matched and listed by. */
export function toolKey(name: string): string {
  return name.trim().toLowerCase();
}

export type ThreadToolName = { key: string; name: string };

/** A thread's tools, each once by key, spelled as first seen. */
export function threadTools(
  thread: { source: string; toolName: string },
  turns: Iterable<{ toolName: string | null; parts: string | null }>,
): ThreadToolName[] {
  const tools = new Map<string, string>();
  const add = (name: string | null | undefined) => {
    const trimmed = name?.trim();
    if (trimmed && !tools.has(toolKey(trimmed))) tools.set(toolKey(trimmed), trimmed);
  };
  if (namesATool(thread.source)) add(thread.toolName);
  for (const turn of turns) {
    add(turn.toolName);
    for (const name of toolCallNames(turn.parts)) add(name);
  }
  return [...tools].map(([key, name]) => ({ key, name }));
}

/**
 * Names of the tool calls in a turn's stored parts (JSON text); none when there are none or the text is not a list.
 * @internal exported for its tests
 */
export function toolCallNames(parts: string | null): string[] {
  if (!parts || !parts.includes('"tool_call"')) return [];
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(parts) as JsonValue;
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((part) =>
    part && typeof part === "object" && !Array.isArray(part) && part.type === "tool_call" && typeof part.name === "string"
      ? [part.name]
      : [],
  );
}

/** The Tool filter's options: one per key, the spelling most threads use (ties: the first in order). */
export function toolOptions(rows: Iterable<{ key: string; name: string; threads: number }>): { value: string; label: string }[] {
  const best = new Map<string, { name: string; threads: number }>();
  for (const row of rows) {
    const seen = best.get(row.key);
    if (!seen || row.threads > seen.threads || (row.threads === seen.threads && row.name < seen.name))
      best.set(row.key, { name: row.name, threads: row.threads });
  }
  return [...best].sort(([a], [b]) => a.localeCompare(b)).map(([key, { name }]) => ({ value: key, label: name }));
}
