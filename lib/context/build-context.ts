import "server-only";
import { AppError } from "@/lib/domain/errors";
import {
  buildConversationHistory,
  calculateTokenAllocation,
  codePointLength,
  conversationFileList,
  palCountTokens,
  palFileBlock,
  palReportTokens,
  planConversationHistory,
  renderConversationHistory,
  turnShell,
  type BuiltHistory,
  type FileReadResult,
  type HistoryTurnOutline,
  type PlanHistoryInput,
} from "@/lib/domain/history";
import { listCustomModels } from "@/lib/db/custom-models";
import { loadHistorySource, loadTurnContents, newestSnapshots, type ChainSnapshot, type MeasureContents, type OutlinedTurn } from "@/lib/db/history-source";
import { threadNotFound } from "@/lib/db/threads";
import { serverSettings } from "@/lib/env";
import { readFromRoots } from "@/lib/files/file-source";
import { findModel, suggestModels, type ModelInfo } from "@/lib/models/catalog";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { rememberCounts, rememberingLongTexts } from "@/lib/tokenizers/memo";
import { DEFAULT_TOKENIZER_ID, getTokenizer } from "@/lib/tokenizers/registry";
import type { ContextQuery } from "@/lib/validation/context";
import { turnShellCounter } from "./shell-tokens";
import type { ContextPreview } from "./types";

function unknownModel(name: string, custom: ModelInfo[]): AppError {
  const close = suggestModels(name, 5, custom);
  const hint = close.length > 0 ? ` Close matches: ${close.join(", ")}.` : "";
  return new AppError("validation_failed", `model: unknown model "${name}".${hint} Or pass contextWindow instead.`, [
    { field: "model", message: `unknown model "${name}"`, suggestions: close },
  ]);
}

/** The measure PAL's estimates need of a turn's content: its length in code points, stored like a count. */
const CODE_POINTS = "code-points";

type ResolvedFile = FileReadResult & { source?: "snapshot" | "root" };

/**
 * Resolves each file the chain references: the newest snapshot a turn stored of it, else the
 * file under THREADLINE_FILE_ROOTS, else a reason why not. Never any other read.
 */
async function resolveFiles(turns: OutlinedTurn[], paths: string[]): Promise<Map<string, ResolvedFile>> {
  const snapshots = paths.length > 0 ? await newestSnapshots(turns) : new Map<string, ChainSnapshot>();
  const roots = serverSettings().fileRoots;
  const resolved = new Map<string, ResolvedFile>();
  await Promise.all(
    paths.map(async (path) => {
      const snapshot = snapshots.get(path);
      if (snapshot !== undefined) {
        resolved.set(path, { ok: true, content: snapshot.content, source: "snapshot" });
        return;
      }
      const read = await readFromRoots(path, roots);
      resolved.set(path, read.ok ? { ...read, source: "root" } : read);
    }),
  );
  return resolved;
}

type Counting = {
  tokenizer: { id: string; label: string };
  exact: boolean;
  /** What a turn's content is measured and stored as. */
  measureId: string;
  measure: MeasureContents;
  countTokens: (text: string) => number;
  reportTokens: (text: string) => number;
  /** A turn's tokens from its outline and its content's stored measure. */
  turnTokens: (turn: HistoryTurnOutline, turnNumber: number, contentMeasure: number) => number;
  /** Counts long texts countTokens will be asked for (file blocks) ahead, off the event loop. */
  countAhead: (texts: string[]) => Promise<void>;
};

const shellTemplateCounts = new Map<string, Map<string, number>>();

/** Turn shell template counts, kept per tokenizer across requests (see turnShellCounter). */
function shellTemplates(tokenizerId: string): Map<string, number> {
  let templates = shellTemplateCounts.get(tokenizerId);
  if (!templates) shellTemplateCounts.set(tokenizerId, (templates = new Map()));
  return templates;
}

function countingFor(query: ContextQuery, model: ModelInfo | null): Counting {
  if (query.mode === "pal") {
    return {
      tokenizer: { id: "chars/3+chars/4", label: "PAL estimate (characters / 3 to budget, / 4 to report)" },
      exact: false,
      measureId: CODE_POINTS,
      measure: async (contents) => contents.map((content) => ({ tokens: codePointLength(content), estimated: false })),
      countTokens: palCountTokens,
      reportTokens: palReportTokens,
      // floor(code points / 3) of the whole turn text, exactly as PAL counts it
      turnTokens: (turn, turnNumber, codePoints) => Math.floor((codePointLength(turnShell(turn, turnNumber)) + codePoints) / 3),
      countAhead: async () => {},
    };
  }
  let counter;
  try {
    counter = getTokenizer(query.tokenizer ?? model?.tokenizer ?? DEFAULT_TOKENIZER_ID);
  } catch (error) {
    throw new AppError("validation_failed", `tokenizer: ${error instanceof Error ? error.message : "unknown tokenizer"}`);
  }
  const count = rememberingLongTexts(counter.id, (text) => counter.count(text));
  const shellTokens = turnShellCounter(count, shellTemplates(counter.id));
  return {
    tokenizer: { id: counter.id, label: counter.label },
    exact: counter.exact,
    measureId: counter.id,
    measure: (contents) => countTexts(counter.id, contents),
    countTokens: count,
    reportTokens: count,
    // The turn's header and content counted apart: a token or so off where a tokenizer would merge across them.
    turnTokens: (turn, turnNumber, contentTokens) => shellTokens(turn, turnNumber) + contentTokens,
    countAhead: async (texts) => rememberCounts(counter.id, texts, (await countTexts(counter.id, texts)).map((counted) => counted.tokens)),
  };
}

/**
 * What a model would be sent to continue a thread: PAL's build_conversation_history over the
 * thread's chain, budgeted by the model's context window. "pal" reproduces PAL's text and figures
 * exactly (characters / 3 to budget, / 4 to report); "exact" runs the same algorithm with the
 * model's tokenizer. Turns are planned from stored per-turn measures; only the turns that fit
 * are read in full.
 */
export async function buildContextPreview(threadId: string, query: ContextQuery): Promise<ContextPreview> {
  let model: ModelInfo | null = null;
  if (query.model) {
    const custom = await listCustomModels();
    model = findModel(query.model, custom);
    if (!model) throw unknownModel(query.model, custom);
  }
  const contextWindow = query.contextWindow ?? model?.contextWindow ?? 0;
  const allocation = calculateTokenAllocation(contextWindow, query.reserve);
  const counting = countingFor(query, model);
  const { chain, turns } = await loadHistorySource(threadId, counting.measureId, counting.measure);
  const current = chain.at(-1);
  if (!current) throw threadNotFound(threadId);

  const paths = conversationFileList(turns);
  const files = await resolveFiles(turns, paths);
  await counting.countAhead([...files].flatMap(([path, file]) => (file.ok ? [palFileBlock(path, file)] : [])));
  const built = await assemble({
    threadId: current.id,
    toolName: current.toolName,
    turns,
    maxConversationTurns: serverSettings().maxTurns.value,
    allocation,
    readFile: (path) => files.get(path) ?? { ok: false, reason: "not resolved" },
    countTokens: counting.countTokens,
    reportTokens: counting.reportTokens,
    turnTokens: (turn, turnNumber) => counting.turnTokens(turn, turnNumber, turn.measure),
  });

  const used = built.totalTokens;
  return {
    model: model ? { id: model.id, provider: model.provider, contextWindow: model.contextWindow, maxOutputTokens: model.maxOutputTokens } : null,
    mode: query.mode,
    tokenizer: counting.tokenizer,
    // A turn counted in pieces makes the figures an estimate, even with an exact tokenizer.
    exact: counting.exact && !turns.some((turn) => turn.estimated),
    allocation,
    files: {
      included: built.files.included.map((f) => ({ path: f.path, tokens: f.tokens, source: files.get(f.path)?.source ?? "snapshot" })),
      skipped: built.files.skipped.map((f) => ({ path: f.path, reason: f.reason, tokens: f.tokens })),
    },
    turns: built.turns,
    perTurn: built.perTurn.map((entry, i) => {
      const source = turns[i]!;
      return {
        number: entry.number,
        role: entry.role,
        toolName: entry.toolName,
        tokens: entry.tokens,
        ...(source.estimated ? { estimated: true } : {}),
        included: entry.included,
        threadId: source.threadId,
        turnId: source.id,
        index: source.index,
      };
    }),
    sections: { ...built.sections, reservedForResponse: allocation.response, free: Math.max(0, allocation.total - allocation.response - used) },
    totalTokens: used,
    text: built.text,
  };
}

/** Plans over the outlines, then reads the content of the turns that fit and renders the text. */
async function assemble(input: PlanHistoryInput<OutlinedTurn>): Promise<BuiltHistory> {
  if (input.turns.length === 0) return buildConversationHistory({ ...input, turns: [] });
  const plan = planConversationHistory(input);
  const included = input.turns.slice(plan.oldestIncluded);
  const contents = await loadTurnContents(included.map((turn) => turn.seq));
  return renderConversationHistory(
    plan,
    included.map((turn) => ({ ...turn, content: contents.get(turn.seq) ?? "" })),
    input,
  );
}
