/**
 * OpenAI Codex CLI rollouts ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<threadId>.jsonl),
 * docs/formats.md §2, "Codex CLI". Pure: the caller supplies the lines. One file = one thread.
 *
 * How the records become turns (file order is the only order Codex gives):
 * - User turns come from `event_msg user_message` (the typed prompt). User-role `response_item`
 *   messages are injected context (environment, AGENTS.md, instructions): not turns; the first
 *   environment context and the first instructions block go to the thread's initialContext.
 *   Only a file with no user_message event at all (pre-Sept-2025 "bare" rollouts, or builds that
 *   did not persist events) takes its user turns from those items, minus the injected ones.
 * - One assistant turn gathers consecutive model output: reasoning summaries (thinking parts),
 *   assistant messages (text parts) and tool calls, until a user prompt, a tool output, a
 *   compaction, a rollback or a new task ends it. So the usual step "reasoning, a sentence, three
 *   calls" is one turn, followed by one "tool" turn per output.
 * - `agent_message` / `agent_reasoning` events repeat the assistant messages / reasoning summaries.
 *   The response items win; an event is matched to an item of the same kind in the same assistant
 *   turn by position (not by text: redacted files give the two different placeholders) and only
 *   an event left without an item is rendered, as a text/thinking part marked `fromEvent`.
 * - Developer/system messages are not shown. Encrypted reasoning is never rendered.
 * - Usage (usage.ts): `token_count` carries cumulative totals; each positive difference is one
 *   model request's usage and goes on the assistant turn holding that request's output. A request
 *   starts at the first model response item (reasoning, message, call) after a boundary (user
 *   prompt, tool output, turn_context, compaction, task start/end). The thread's usage then sums
 *   to the final cumulative total (minus what predates the file when it does not start at the
 *   thread's start, and minus what a rollback dropped: both reported).
 * - `compacted` becomes a system turn with a compaction marker; `context_compacted` is the same
 *   event and only makes a turn when no `compacted` record goes with it.
 * - `thread_rolled_back {num_turns}` drops the last N user turns and everything after each, as
 *   Codex does with the model's history; a warning says what went.
 * - Turn keys are the 1-based line of the record that started the turn: the same file gives the
 *   same keys, and appending lines never changes the keys of earlier turns. Codex writes the
 *   prompt's user-role item just before its user_message event, so a prompt's turn is keyed by
 *   that item (the latest user-role item since the last turn that is not injected context), else
 *   by the event: a file read between the two lines gives the prompt the same key as the whole
 *   file does.
 *
 * The folder: records.ts decodes lines into records, handlers.ts says what each record type does,
 * assembly.ts holds the conversation's state while they arrive, usage.ts the token ledger,
 * values.ts small readers of fields; this file walks the records and makes the thread.
 */
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject, type ImportedThread, type NumberedLine, type ParsedSource } from "../types";
import { RolloutAssembly } from "./assembly";
import { recordHandler } from "./handlers";
import { decodeRollout, type RolloutRecord } from "./records";
import { defined, isoOrNull, str } from "./values";

export { looksLikeCodexRollout } from "./records";

export type CodexSource = {
  /** File name (or path): `rollout-<time>-<threadId>.jsonl`. */
  name: string;
};

type Json = Record<string, JsonValue>;

const THREAD_ID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export function parseCodexRollout(input: Iterable<NumberedLine>, source: CodexSource): ParsedSource {
  const { records, bare, skipped, promptsFromItems } = decodeRollout(Array.from(input), source.name);
  const warnings: string[] = [];
  const meta: Json | null = bare ?? records.find((r) => r.type === "session_meta")?.payload ?? null;
  const assembly = new RolloutAssembly(
    meta ? str(meta.model_provider) : null,
    { project: meta ? str(meta.cwd) : null, model: bare ? str(bare.model) : null },
    promptsFromItems,
    skipped,
    warnings,
  );
  const span = walk(records, meta, assembly);
  const turns = assembly.finishedTurns();
  const thread = threadOf(meta, bare, assembly, span, source, warnings);
  thread.turns = turns;
  return { format: "codex", threads: [thread], skipped, warnings };
}

type Span = { first: string | null; last: string | null };

/** Hands every record to its handler, in file order; answers the first and last times seen. */
function walk(records: RolloutRecord[], meta: Json | null, assembly: RolloutAssembly): Span {
  const span: Span = { first: null, last: null };
  let sawMeta = false;
  for (const record of records) {
    if (record.timestamp) {
      span.first ??= record.timestamp;
      span.last = record.timestamp;
    }
    if (record.type === "session_meta") {
      if (sawMeta && str(record.payload.id) !== str(meta?.id ?? null))
        assembly.warnings.push(`line ${record.line}: a second session_meta (${String(record.payload.id)}) is ignored`);
      sawMeta = true;
      continue;
    }
    recordHandler(record.type)?.(assembly, record, record.payload);
  }
  return span;
}

/** The thread (without its turns): key, title, project, times, lineage and what session_meta says. */
function threadOf(
  meta: Json | null,
  bare: Json | null,
  assembly: RolloutAssembly,
  span: Span,
  source: CodexSource,
  warnings: string[],
): ImportedThread {
  const sourceField = meta?.source;
  const spawn =
    isObject(sourceField) && isObject(sourceField.subagent) && isObject(sourceField.subagent.thread_spawn)
      ? sourceField.subagent.thread_spawn
      : null;
  const parentFromSpawn = spawn ? str(spawn.parent_thread_id) : null;
  const forkedFromId = meta ? str(meta.forked_from_id) : null;
  const agentId =
    (meta && (str(meta.agent_nickname) ?? str(meta.agent_role))) ?? (spawn && (str(spawn.agent_nickname) ?? str(spawn.agent_role))) ?? null;
  const thread: ImportedThread = {
    key: threadKey(meta, source, warnings),
    title: assembly.title,
    toolName: "codex",
    project: assembly.project,
    createdAt: (meta && isoOrNull(meta.timestamp)) ?? span.first,
    lastUpdatedAt: span.last ?? (meta && isoOrNull(meta.timestamp)),
    ...(Object.keys(assembly.initialContext).length > 0 ? { initialContext: assembly.initialContext } : {}),
    metadata: threadMetadata(meta, bare, assembly, forkedFromId),
    turns: [],
  };
  if (parentFromSpawn) {
    thread.parentKey = parentFromSpawn;
    thread.relation = { kind: "subagent", toolCallId: (spawn && str(spawn.spawn_call_id)) ?? null, agentId };
  } else if (forkedFromId) {
    thread.parentKey = forkedFromId;
    thread.relation = { kind: "fork", atTurnKey: null };
  }
  return thread;
}

/** session_meta's id, else the thread id in the file name, else the file name. */
function threadKey(meta: Json | null, source: CodexSource, warnings: string[]): string {
  const key = meta ? str(meta.id) : null;
  if (key) return key;
  const fileName = source.name.split(/[\\/]/).pop() ?? source.name;
  const fromName = THREAD_ID_IN_NAME.exec(fileName)?.[1]?.toLowerCase() ?? fileName.replace(/\.jsonl$/i, "");
  warnings.push(`no session_meta with an id: the thread key comes from the file name (${fromName})`);
  return fromName;
}

function threadMetadata(meta: Json | null, bare: Json | null, assembly: RolloutAssembly, forkedFromId: string | null): JsonObject {
  const git = meta && isObject(meta.git) ? meta.git : null;
  const gitMeta = git ? defined({ commit: str(git.commit_hash), branch: str(git.branch), repositoryUrl: str(git.repository_url) }) : null;
  const dropped = assembly.ledger.dropped;
  return defined({
    originator: meta ? str(meta.originator) : null,
    cliVersion: meta ? str(meta.cli_version) : null,
    source: meta?.source,
    modelProvider: assembly.modelProvider,
    git: gitMeta && Object.keys(gitMeta).length > 0 ? gitMeta : null,
    forkedFromId,
    agentNickname: meta ? str(meta.agent_nickname) : null,
    agentRole: meta ? str(meta.agent_role) : null,
    threadSource: meta?.thread_source,
    bareFormat: bare ? true : null,
    rolledBackUsage: dropped ? (dropped as JsonObject) : null,
  });
}
