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
  type FileSnapshot,
  type HistoryTurnOutline,
  type PlanHistoryInput,
} from "@/lib/domain/history";
import { listCustomModels } from "@/lib/db/settings/custom-models";
import {
  loadHistorySource,
  loadTurnContents,
  newestSnapshots,
  type HistorySource,
  type MeasureContents,
  type OutlinedTurn,
} from "@/lib/db/threads/history-source";
import { threadNotFound } from "@/lib/db/threads/threads";
import { serverSettings } from "@/lib/env";
import { readFromRoots } from "@/lib/files/file-source";
import { findModel, suggestModels, type ModelInfo } from "@/lib/models/catalog";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { knownCount, rememberCounts } from "@/lib/tokenizers/memo";
import { DEFAULT_TOKENIZER_ID, getTokenizer } from "@/lib/tokenizers/registry";
import type { ContextQuery } from "@/lib/validation/context";
import { addsUpOverSegments, countingSegments } from "@/lib/tokenizers/segments";
import { turnShellCounter } from "./shell-tokens";
import type { ContextPreview } from "../domain/history/context-preview";
import { quoteInput } from "@/lib/domain/secrets/quote";

export function unknownModel(name: string, custom: ModelInfo[]): AppError {
  const close = suggestModels(name, 5, custom);
  const hint = close.length > 0 ? ` Close matches: ${close.join(", ")}.` : "";
  return new AppError("validation_failed", `model: unknown model ${quoteInput(name)}.${hint} Or pass contextWindow instead.`, [
    { field: "model", message: `unknown model ${quoteInput(name)}`, suggestions: close },
  ]);
}

/** The measure PAL's estimates need of a turn's content: its length in code points, stored like a count. */
const CODE_POINTS = "code-points";

type ResolvedFile = FileReadResult & { source?: "snapshot" | "root" };

/**
 * The newest stored snapshot of each file a thread's turns hold, per thread state (most recently
 * used last): the pick holds while the thread's turns do. The files themselves are kept by
 * snapshot key, since a stored snapshot never changes: a thread read again after an append reads
 * only snapshots it had not, and the same objects come back, which lets their block counts be
 * remembered (blockCounts).
 */
const snapshotsByThread = new Map<string, Map<string, ResolvedFile>>();
const SNAPSHOT_CACHE_THREADS = 1_000;
const snapshotFiles = new Map<string, ResolvedFile>();
const SNAPSHOT_FILES_BYTES = 64 * 1024 * 1024;
let snapshotFilesBytes = 0;

const heldBytes = (file: ResolvedFile) => (file.ok ? (file.sizeBytes ?? 0) : 0);

function rememberSnapshotFile(key: string, file: ResolvedFile): void {
  snapshotFiles.set(key, file);
  snapshotFilesBytes += heldBytes(file);
  while (snapshotFilesBytes > SNAPSHOT_FILES_BYTES && snapshotFiles.size > 1) {
    const [oldest, dropped] = snapshotFiles.entries().next().value!;
    snapshotFiles.delete(oldest);
    snapshotFilesBytes -= heldBytes(dropped);
  }
}

async function threadSnapshots(threadId: string, signature: string, turns: OutlinedTurn[]): Promise<Map<string, ResolvedFile>> {
  const known = snapshotsByThread.get(signature);
  if (known) {
    snapshotsByThread.delete(signature);
    snapshotsByThread.set(signature, known);
    return known;
  }
  const found = new Map<string, ResolvedFile>();
  // Held here from the moment they count as known: another request may push them out of the cache meanwhile.
  const held = new Map<string, ResolvedFile>();
  const isKnown = (key: string) => {
    const file = snapshotFiles.get(key);
    if (file) held.set(key, file);
    return file !== undefined;
  };
  for (const [path, { key, content }] of await newestSnapshots(threadId, turns, isKnown)) {
    let file = content === null ? held.get(key)! : undefined;
    if (!file) {
      file = { ok: true, content: content!, sizeBytes: Buffer.byteLength(content!, "utf8"), source: "snapshot" };
      rememberSnapshotFile(key, file);
    }
    found.set(path, file);
  }
  snapshotsByThread.set(signature, found);
  if (snapshotsByThread.size > SNAPSHOT_CACHE_THREADS) snapshotsByThread.delete(snapshotsByThread.keys().next().value!);
  return found;
}

/** The newest snapshot of each file across the chain: a later thread's replaces an earlier one's. */
async function chainSnapshots(source: HistorySource): Promise<Map<string, ResolvedFile>> {
  const byThread = new Map<string, OutlinedTurn[]>();
  for (const turn of source.turns) {
    const list = byThread.get(turn.threadId);
    if (list) list.push(turn);
    else byThread.set(turn.threadId, [turn]);
  }
  const newest = new Map<string, ResolvedFile>();
  for (const [i, thread] of source.chain.entries()) {
    const turns = byThread.get(thread.id);
    if (!turns) continue;
    for (const [path, file] of await threadSnapshots(thread.id, source.threadSignatures[i]!, turns)) newest.set(path, file);
  }
  return newest;
}

/**
 * Resolves each file the chain references: the newest snapshot a turn stored of it, else the
 * file under THREADLINE_FILE_ROOTS, else a reason why not. Never any other read.
 */
async function resolveFiles(source: HistorySource, paths: string[]): Promise<Map<string, ResolvedFile>> {
  const snapshots = paths.length > 0 ? await chainSnapshots(source) : new Map<string, ResolvedFile>();
  const roots = serverSettings().fileRoots;
  const resolved = new Map<string, ResolvedFile>();
  await Promise.all(
    paths.map(async (path) => {
      const snapshot = snapshots.get(path);
      if (snapshot !== undefined) {
        resolved.set(path, snapshot);
        return;
      }
      const read = await readFromRoots(path, roots);
      resolved.set(path, read.ok ? { ...read, source: "root" } : read);
    }),
  );
  return resolved;
}

/** Token counts of file blocks, per file object and `<measure>\0<path>`: a snapshot's are counted once per tokenizer. */
const blockCounts = new WeakMap<FileSnapshot, Map<string, number>>();

function knownBlockCount(file: FileSnapshot, key: string): number | undefined {
  return blockCounts.get(file)?.get(key);
}

function rememberBlockCount(file: FileSnapshot, key: string, tokens: number): void {
  let counts = blockCounts.get(file);
  if (!counts) blockCounts.set(file, (counts = new Map()));
  counts.set(key, tokens);
}

type Counting = {
  tokenizer: { id: string; label: string };
  exact: boolean;
  /** What a turn's content is measured and stored as. */
  measureId: string;
  measure: MeasureContents;
  countTokens: (text: string) => number;
  reportTokens: (text: string) => number;
  /** reportTokens of the whole text sent, which an append changes: counted off the event loop where that is work. */
  reportTotal: (text: string) => Promise<number>;
  /** A turn's tokens from its outline and its content's stored measure. */
  turnTokens: (turn: HistoryTurnOutline, turnNumber: number, contentMeasure: number) => number;
  /** Counts texts countTokens would be asked for (file blocks) ahead, off the event loop, and remembers them. */
  countAhead: (texts: string[]) => Promise<number[]>;
  /** A count countTokens would answer without counting, if there is one. */
  remembered: (text: string) => number | undefined;
  /**
   * Runs `attempt` (which counts with countTokens, reportTokens and turnTokens) until it asked
   * for no count this request had not counted yet: those count as 0 while it runs, and are then
   * counted on the worker, so the vocabulary is never loaded, nor a text tokenised, on this thread.
   */
  settle: <T>(attempt: () => T) => Promise<T>;
};

/**
 * Passes of settle after which what is still unknown is counted in place. Two or three suffice
 * (the first asks for every count, the next for a note whose number changed): a guard, not a path.
 */
const SETTLE_PASSES = 8;

const shellTemplateCounts = new Map<string, Map<string, number>>();

/** Turn shell template counts, kept per tokenizer across requests (see turnShellCounter). */
function shellTemplates(tokenizerId: string): Map<string, number> {
  let templates = shellTemplateCounts.get(tokenizerId);
  if (!templates) shellTemplateCounts.set(tokenizerId, (templates = new Map()));
  return templates;
}

function countingFor(query: Pick<ContextQuery, "mode" | "tokenizer">, model: ModelInfo | null): Counting {
  if (query.mode === "pal") {
    return {
      tokenizer: { id: "chars/3+chars/4", label: "PAL estimate (characters / 3 to budget, / 4 to report)" },
      exact: false,
      measureId: CODE_POINTS,
      measure: async (contents) => contents.map((content) => ({ tokens: codePointLength(content), estimated: false })),
      countTokens: palCountTokens,
      reportTokens: palReportTokens,
      reportTotal: async (text) => palReportTokens(text),
      // floor(code points / 3) of the whole turn text, exactly as PAL counts it
      turnTokens: (turn, turnNumber, codePoints) => Math.floor((codePointLength(turnShell(turn, turnNumber)) + codePoints) / 3),
      countAhead: async (texts) => texts.map(palCountTokens),
      remembered: () => undefined,
      settle: async (attempt) => attempt(),
    };
  }
  let counter;
  try {
    counter = getTokenizer(query.tokenizer ?? model?.tokenizer ?? DEFAULT_TOKENIZER_ID);
  } catch (error) {
    throw new AppError("validation_failed", `tokenizer: ${error instanceof Error ? error.message : "unknown tokenizer"}`);
  }
  const tokenizerId = counter.id;
  // Counts this request has counted: the shared memo may drop them meanwhile, and settle must end.
  const counted = new Map<string, number>();
  const missing = new Set<string>();
  const remembered = (text: string) => counted.get(text) ?? knownCount(tokenizerId, text);
  const lookUp = (text: string): number | undefined => {
    const known = remembered(text);
    if (known === undefined) missing.add(text);
    return known;
  };
  const count = (text: string) => lookUp(text) ?? 0;
  const shellTokens = turnShellCounter(lookUp, shellTemplates(tokenizerId));
  const countRemembering = async (texts: string[]): Promise<number[]> => {
    if (texts.length === 0) return [];
    const tokens = (await countTexts(tokenizerId, texts)).map((counted) => counted.tokens);
    rememberCounts(tokenizerId, texts, tokens);
    texts.forEach((text, i) => counted.set(text, tokens[i]!));
    return tokens;
  };
  const settle = async <T>(attempt: () => T): Promise<T> => {
    for (let pass = 1; ; pass++) {
      missing.clear();
      const result = attempt();
      if (missing.size === 0) return result;
      const texts = [...missing];
      if (pass < SETTLE_PASSES) await countRemembering(texts);
      else texts.forEach((text) => counted.set(text, counter.count(text)));
    }
  };
  return {
    tokenizer: { id: counter.id, label: counter.label },
    exact: counter.exact,
    measureId: counter.id,
    measure: (contents) => countTexts(counter.id, contents),
    countTokens: count,
    reportTokens: count,
    // Section by section where the sections' counts add up to the text's (see segments.ts): after
    // an append only the new turn, the header and the closing note are counted again.
    reportTotal: async (text) => {
      const sections = addsUpOverSegments(counter.id) ? countingSegments(text) : [text];
      const tokens = sections.map((section) => knownCount(counter.id, section));
      const unknown = sections.filter((_, i) => tokens[i] === undefined);
      const counted = await countRemembering(unknown);
      let next = 0;
      return tokens.reduce<number>((total, known) => total + (known ?? counted[next++]!), 0);
    },
    // The turn's header and content counted apart: a token or so off where a tokenizer would merge across them.
    turnTokens: (turn, turnNumber, contentTokens) => shellTokens(turn, turnNumber) + contentTokens,
    countAhead: countRemembering,
    remembered,
    settle,
  };
}

/**
 * What a model would be sent to continue a thread: PAL's build_conversation_history over the
 * thread's chain, budgeted by the model's context window. "pal" reproduces PAL's text and figures
 * exactly (characters / 3 to budget, / 4 to report); "exact" runs the same algorithm with the
 * model's tokenizer. Turns are planned from stored per-turn measures; only the turns that fit
 * are read in full.
 */
export async function buildContextPreview(
  threadId: string,
  query: Omit<ContextQuery, "perTurn"> & { perTurn?: boolean },
): Promise<ContextPreview> {
  let model: ModelInfo | null = null;
  if (query.model) {
    const custom = await listCustomModels();
    model = findModel(query.model, custom);
    if (!model) throw unknownModel(query.model, custom);
  }
  const contextWindow = query.contextWindow ?? model?.contextWindow ?? 0;
  const allocation = calculateTokenAllocation(contextWindow, query.reserve);
  const counting = countingFor(query, model);
  const source = await loadHistorySource(threadId, counting.measureId, counting.measure);
  const { chain, turns } = source;
  const current = chain.at(-1);
  if (!current) throw threadNotFound(threadId);

  const paths = conversationFileList(turns);
  const files = await resolveFiles(source, paths);
  const blockKey = (path: string) => `${counting.measureId}\u0000${path}`;
  // A block is counted once per content: a thread read again after an append brings new snapshot objects.
  const uncounted = [...files].flatMap(([path, file]) => {
    if (!file.ok || knownBlockCount(file, blockKey(path)) !== undefined) return [];
    const block = palFileBlock(path, file);
    const remembered = counting.remembered(block);
    if (remembered === undefined) return [{ path, file, block }];
    rememberBlockCount(file, blockKey(path), remembered);
    return [];
  });
  const counted = await counting.countAhead(uncounted.map(({ block }) => block));
  uncounted.forEach(({ path, file }, i) => rememberBlockCount(file, blockKey(path), counted[i]!));
  const built = await assemble(
    {
      threadId: current.id,
      toolName: current.toolName,
      turns,
      maxConversationTurns: serverSettings().maxTurns.value,
      allocation,
      readFile: (path) => files.get(path) ?? { ok: false, reason: "not resolved" },
      countTokens: counting.countTokens,
      reportTokens: counting.reportTokens,
      fileBlockTokens: (path, file) => {
        const known = knownBlockCount(file, blockKey(path));
        if (known !== undefined) return known;
        const block = palFileBlock(path, file);
        const tokens = counting.countTokens(block);
        // Not yet counted (0 for now, see settle): nothing to keep.
        if (counting.remembered(block) !== undefined) rememberBlockCount(file, blockKey(path), tokens);
        return tokens;
      },
      turnTokens: (turn, turnNumber) => counting.turnTokens(turn, turnNumber, turn.measure),
      breakdown: query.perTurn ?? false,
      fileList: paths,
    },
    counting,
  );

  const used = built.totalTokens;
  return {
    model: model
      ? { id: model.id, provider: model.provider, contextWindow: model.contextWindow, maxOutputTokens: model.maxOutputTokens }
      : null,
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
    ...(query.perTurn
      ? {
          perTurn: built.perTurn.map((entry, i) => {
            const source = turns[i]!;
            return {
              number: entry.number,
              role: entry.role,
              toolName: entry.toolName,
              tokens: entry.tokens,
              ...(source.estimated ? { estimated: true as const } : {}),
              included: entry.included,
              threadId: source.threadId,
              turnId: source.id,
              index: source.index,
            };
          }),
        }
      : {}),
    sections: {
      ...built.sections,
      reservedForResponse: allocation.response,
      free: Math.max(0, allocation.total - allocation.response - used),
    },
    totalTokens: used,
    text: built.text,
  };
}

/**
 * Plans over the outlines, then reads the content of the turns that fit and renders the text,
 * whose total is counted with `reportTotal` (off the event loop: after an append the text is new).
 */
async function assemble(input: PlanHistoryInput<OutlinedTurn>, counting: Counting): Promise<BuiltHistory> {
  if (input.turns.length === 0) return counting.settle(() => buildConversationHistory({ ...input, turns: [] }));
  const plan = await counting.settle(() => planConversationHistory(input));
  const included = input.turns.slice(plan.oldestIncluded);
  const contents = await loadTurnContents(included.map((turn) => turn.seq));
  const withContent = included.map((turn) => ({ ...turn, content: contents.get(turn.seq) ?? "" }));
  const built = await counting.settle(() => renderConversationHistory(plan, withContent, { ...input, reportTokens: () => 0 }));
  return { ...built, totalTokens: await counting.reportTotal(built.text) };
}
