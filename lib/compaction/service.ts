import "server-only";
import { performance } from "node:perf_hooks";
import { extractiveSummary } from "@/lib/domain/compaction/extractive";
import { planCompaction } from "@/lib/domain/compaction/plan";
import { collectReferences, missingReferences } from "@/lib/domain/compaction/references";
import { buildRevision } from "@/lib/domain/compaction/revision";
import {
  staticMarker,
  type CompactionOptions,
  type CompactionPreview,
  type CompactionTurn,
  type RevisionTurn,
} from "@/lib/domain/compaction/types";
import { AppError } from "@/lib/domain/errors";
import type { TokenCount } from "@/lib/domain/tokens/tokenizer";
import type { JsonObject, ThreadWithTurns, TurnPart } from "@/lib/domain/types";
import { createRevision } from "@/lib/db/threads/compactions";
import { type CompactionRecord } from "@/lib/domain/compaction/records";
import { listCustomModels } from "@/lib/db/settings/custom-models";
import { getThreadWithTurns } from "@/lib/db/threads/threads";
import { contentTokenCounts } from "@/lib/db/threads/token-counts";
import { providerProblem, resolveLlmConfig } from "@/lib/llm/config";
import { formatModelSpec, parseModelSpec } from "@/lib/domain/compaction/model-spec";
import { LlmCallError } from "@/lib/llm/provider";
import { summarizeWithLlm } from "@/lib/llm/summarize";
import { findModel } from "@/lib/models/catalog";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID, getTokenizer } from "@/lib/tokenizers/registry";
import type { CompactionRequest } from "@/lib/validation/compactions";
import { quoteInput } from "@/lib/domain/secrets/quote";

type Measure = { id: string; label: string; exact: boolean };

async function measureFor(targetModel: string | undefined): Promise<Measure> {
  if (!targetModel) {
    const counter = getTokenizer(DEFAULT_TOKENIZER_ID);
    return { id: counter.id, label: counter.label, exact: counter.exact };
  }
  const custom = await listCustomModels();
  const model = findModel(targetModel, custom);
  if (!model)
    throw new AppError("validation_failed", `targetModel: unknown model ${quoteInput(targetModel)}`, [
      { field: "targetModel", message: "unknown model" },
    ]);
  const counter = getTokenizer(model.tokenizer);
  return { id: counter.id, label: counter.label, exact: counter.exact };
}

function compactionTurns(thread: ThreadWithTurns): CompactionTurn[] {
  return thread.turns.map((turn) => ({
    index: turn.index,
    role: turn.role,
    content: turn.content,
    parts: turn.parts,
    toolName: turn.toolName,
    modelName: turn.modelName,
    files: turn.files,
    images: turn.images,
  }));
}

/** The request's options, as lib/validation/compactions.ts checked them for its strategy. */
type CheckedOptions = {
  trigger: "turns" | "tokens";
  maxTurns: number;
  maxTokens: number;
  direction: "up-to" | "from";
  at: number;
  maxChars: number;
};

function domainOptions(request: CompactionRequest, perTurnTokens: () => number[]): CompactionOptions {
  const options = request.options as CheckedOptions;
  switch (request.strategy) {
    case "full":
      return { strategy: "full" };
    case "window":
      return options.trigger === "tokens"
        ? { strategy: "window", trigger: "tokens", maxTokens: options.maxTokens, tokens: perTurnTokens() }
        : { strategy: "window", trigger: "turns", maxTurns: options.maxTurns };
    case "range":
      return { strategy: "range", direction: options.direction, at: options.at };
    case "trim-tool-output":
      return { strategy: "trim-tool-output", maxChars: options.maxChars };
  }
}

/** Context a preview is computed in; `llm` runs the LLM summariser (jobs and the API pass a signal). */
type PreviewContext = { signal?: AbortSignal; onProgress?: (text: string) => void };

/**
 * The preview of a compaction: the plan, the summary (from the chosen summariser, or the edited
 * one given), tokens before and after under the target model's tokenizer, the references the
 * summary would lose, and whether the inflation guard refuses it. Nothing is written.
 */
export async function previewCompaction(
  threadId: string,
  request: CompactionRequest,
  context: PreviewContext = {},
): Promise<CompactionPreview & { revision: RevisionTurn[]; thread: ThreadWithTurns; revisionTokens: TokenCount[] }> {
  const thread = await getThreadWithTurns(threadId, { includeExpired: true });
  const turns = compactionTurns(thread);
  if (request.strategy === "range") {
    const at = (request.options as { at: number }).at;
    if (at >= turns.length) {
      throw new AppError(
        "validation_failed",
        `options.at: the thread has ${turns.length} turns (0-${Math.max(0, turns.length - 1)}); got ${at}`,
        [{ field: "options.at", message: `must be below ${turns.length}` }],
      );
    }
  }
  const measure = await measureFor(request.targetModel);
  const countsById = await contentTokenCounts(thread.turns, measure.id);
  const beforeCounts = thread.turns.map((turn) => countsById.get(turn.id)!);
  const before = beforeCounts.map((counted) => counted.tokens);

  const plan = planCompaction(
    turns,
    domainOptions(request, () => before),
  );
  if (plan.noop) throw new AppError("compaction_refused", `Nothing to compact: ${plan.noop}`, { guard: "noop", reason: plan.noop });

  const replacedTurns = plan.replaced.map((index) => turns[index]!);
  const started = performance.now();
  let summary: string | null = null;
  let summarizer: CompactionPreview["summarizer"] = "none";
  let summarizerModel: string | null = null;
  if (plan.replaced.length > 0) {
    summarizer = request.summarizer;
    // With a summary given (an applied job's, an edit) no model is called: the one named is recorded.
    if (request.summarizer === "llm")
      summarizerModel = request.summary !== undefined && request.model ? request.model : ((await checkSummarizer(request)) ?? null);
    summary = request.summary ?? (await writeSummary(request, replacedTurns, summarizerModel, context));
    if (summary.trim() === "")
      throw new AppError("validation_failed", "summary: must not be empty", [{ field: "summary", message: "must not be empty" }]);
  }
  const durationMs = performance.now() - started;

  const revision = buildRevision(turns, plan, summary ?? "");
  const kept = (turn: RevisionTurn) => turn.from !== null && turn.content === turns[turn.from]!.content;
  const fresh = await countTexts(
    measure.id,
    revision.filter((turn) => !kept(turn)).map((turn) => turn.content),
  );
  let nextFresh = 0;
  const revisionTokens = revision.map((turn) => (kept(turn) ? beforeCounts[turn.from!]! : fresh[nextFresh++]!));
  const tokensBefore = before.reduce((a, b) => a + b, 0);
  const tokensAfter = revisionTokens.reduce((a, b) => a + b.tokens, 0);
  const references = collectReferences(replacedTurns);
  const lostReferences = summary === null ? { paths: [], tools: [] } : missingReferences(references, summary);
  const refusal =
    tokensAfter >= tokensBefore
      ? `The compacted history would be ${tokensAfter.toLocaleString("en-US")} tokens, not fewer than the ${tokensBefore.toLocaleString("en-US")} it replaces: nothing to gain. Shorten the summary, or choose a strategy that replaces more.`
      : null;
  const { noop: _noop, ...planShown } = plan;
  return {
    threadId,
    strategy: request.strategy,
    summarizer,
    summarizerModel,
    targetModel: request.targetModel ?? null,
    tokenizer: { id: measure.id, label: measure.label, exact: measure.exact },
    options: request.options,
    plan: planShown,
    summary,
    turnsBefore: turns.length,
    turnsAfter: revision.length,
    tokensBefore,
    tokensAfter,
    references,
    lostReferences,
    refusal,
    durationMs,
    revision,
    thread,
    revisionTokens,
  };
}

/** The summary from the chosen summariser. */
async function writeSummary(
  request: CompactionRequest,
  turns: CompactionTurn[],
  llmModel: string | null,
  context: PreviewContext,
): Promise<string> {
  if (request.summarizer === "extractive") return extractiveSummary(turns, { instructions: request.instructions });
  if (request.summarizer === "marker" || llmModel === null) return staticMarker(turns.length);
  context.onProgress?.(`Summarising ${turns.length} turns with ${llmModel}`);
  try {
    return (await summarizeWithLlm({ model: llmModel, turns, instructions: request.instructions, signal: context.signal })).text;
  } catch (error) {
    if (error instanceof LlmCallError) throw new AppError("summarizer_failed", error.message, { kind: error.kind });
    throw error;
  }
}

/** The preview without the internals a caller must not be sent (the whole thread, the revision turns). */
export function publicPreview(preview: Awaited<ReturnType<typeof previewCompaction>>): CompactionPreview {
  const { revision: _revision, thread: _thread, revisionTokens: _tokens, ...shown } = preview;
  return shown;
}

/**
 * The LLM summariser's model for a request ("<provider>:<model>"), checked to be usable: a
 * provider without its key or base URL is refused here, before any job or call. Undefined for the
 * offline summarisers.
 */
export async function checkSummarizer(request: CompactionRequest): Promise<string | undefined> {
  if (request.summarizer !== "llm") return undefined;
  const model = request.model ?? (await defaultCompactionModel());
  const parsed = parseModelSpec(model);
  if (!parsed.ok) throw new AppError("validation_failed", parsed.error, [{ field: "model", message: parsed.error }]);
  const problem = providerProblem(await resolveLlmConfig(), parsed.spec.provider);
  if (problem) throw new AppError("validation_failed", `model: ${problem}`, [{ field: "model", message: problem }]);
  return model;
}

async function defaultCompactionModel(): Promise<string> {
  const config = await resolveLlmConfig();
  if (!config.compactionModel) {
    throw new AppError(
      "validation_failed",
      "model: no compaction model given and none configured (THREADLINE_COMPACTION_MODEL or Settings)",
      [{ field: "model", message: "give a model such as openai:gpt-4o-mini, or set one in Settings" }],
    );
  }
  const parsed = parseModelSpec(config.compactionModel.value);
  if (!parsed.ok)
    throw new AppError("validation_failed", `The compaction model set in ${config.compactionModel.origin} is invalid: ${parsed.error}`);
  return formatModelSpec(parsed.spec);
}

/**
 * Applies a compaction: a new thread, the compacted revision, linked to its original, which is
 * not touched. Refused (422) when the revision would not be smaller.
 */
export async function applyCompaction(
  threadId: string,
  request: CompactionRequest,
  fromJob?: { summary: string | null; durationMs: number; expected: { turnsBefore: number; replaced: number[] } },
): Promise<{ thread: Awaited<ReturnType<typeof createRevision>>["thread"]; compaction: CompactionRecord }> {
  const preview = await previewCompaction(threadId, request);
  if (
    fromJob &&
    (preview.turnsBefore !== fromJob.expected.turnsBefore || preview.plan.replaced.join() !== fromJob.expected.replaced.join())
  ) {
    throw new AppError(
      "conflict",
      `The thread changed since this summary was written (${fromJob.expected.turnsBefore} turns then, ${preview.turnsBefore} now): summarise it again.`,
    );
  }
  if (preview.refusal)
    throw new AppError("compaction_refused", preview.refusal, {
      guard: "inflation",
      tokensBefore: preview.tokensBefore,
      tokensAfter: preview.tokensAfter,
    });
  // The tokens under the default tokenizer are stored with the turns, as appends store them.
  const stored =
    preview.tokenizer.id === DEFAULT_TOKENIZER_ID
      ? preview.revisionTokens
      : await countTexts(
          DEFAULT_TOKENIZER_ID,
          preview.revision.map((turn) => turn.content),
        );
  const revisionTurns = preview.revision.map((turn) => markSummary(turn, preview));
  const edited = request.summary !== undefined && request.summary !== (fromJob?.summary ?? generatedSummary(preview, request));
  return createRevision({
    original: preview.thread,
    turns: revisionTurns,
    tokens: stored,
    defaultTokenizer: DEFAULT_TOKENIZER_ID,
    compaction: {
      strategy: preview.strategy,
      summarizer: preview.summarizer,
      summarizerModel: preview.summarizerModel,
      targetModel: preview.targetModel,
      tokenizer: preview.tokenizer.id,
      options: preview.options as JsonObject,
      replaced: preview.plan.replaced,
      trimmed: preview.plan.trimmed,
      tokensBefore: preview.tokensBefore,
      tokensAfter: preview.tokensAfter,
      durationMs: fromJob?.durationMs ?? preview.durationMs,
      summaryEdited: edited,
      lostReferences: preview.lostReferences,
    },
  });
}

/** What the offline summarisers would write, to tell an edited summary; null for the LLM's (not repeatable). */
function generatedSummary(preview: Awaited<ReturnType<typeof previewCompaction>>, request: CompactionRequest): string | null {
  if (request.summarizer === "marker") return staticMarker(preview.plan.replaced.length);
  if (request.summarizer === "llm") return null;
  const turns = compactionTurns(preview.thread);
  return extractiveSummary(
    preview.plan.replaced.map((i) => turns[i]!),
    { instructions: request.instructions },
  );
}

/** Fills the token figures into the summary turn's compaction marker. */
function markSummary(
  turn: RevisionTurn,
  preview: Pick<CompactionPreview, "strategy" | "summarizer" | "tokensBefore" | "tokensAfter">,
): RevisionTurn {
  if (turn.from !== null || !turn.parts) return turn;
  const trigger = preview.summarizer === "none" ? preview.strategy : `${preview.strategy} · ${preview.summarizer}`;
  const parts = turn.parts.map((part): TurnPart =>
    part.type === "compaction" ? { ...part, trigger, tokensBefore: preview.tokensBefore, tokensAfter: preview.tokensAfter } : part,
  );
  return { ...turn, parts };
}
