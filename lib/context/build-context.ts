import "server-only";
import { AppError } from "@/lib/domain/errors";
import {
  buildConversationHistory,
  calculateTokenAllocation,
  conversationFileList,
  palCountTokens,
  palReportTokens,
  type BuiltHistory,
  type FileReadResult,
  type TokenAllocation,
} from "@/lib/domain/history";
import type { ThreadWithTurns } from "@/lib/domain/types";
import { listCustomModels } from "@/lib/db/custom-models";
import { contentTokenCounts } from "@/lib/db/token-counts";
import { getChain } from "@/lib/db/threads";
import { serverSettings } from "@/lib/env";
import { readFromRoots } from "@/lib/files/file-source";
import { findModel, suggestModels, type ModelInfo } from "@/lib/models/catalog";
import { DEFAULT_TOKENIZER_ID, getTokenizer } from "@/lib/tokenizers/registry";
import type { ContextQuery } from "@/lib/validation/context";
import type { ContextPreview } from "./types";

function unknownModel(name: string, custom: ModelInfo[]): AppError {
  const close = suggestModels(name, 5, custom);
  const hint = close.length > 0 ? ` Close matches: ${close.join(", ")}.` : "";
  return new AppError("validation_failed", `model: unknown model "${name}".${hint} Or pass contextWindow instead.`, [
    { field: "model", message: `unknown model "${name}"`, suggestions: close },
  ]);
}

/**
 * Resolves each file the chain references newest first: the newest snapshot a turn stored of it,
 * else the file under THREADLINE_FILE_ROOTS, else a reason why not. Never any other read.
 */
async function resolveFiles(chain: ThreadWithTurns[], paths: string[]): Promise<Map<string, FileReadResult & { source?: "snapshot" | "root" }>> {
  const snapshots = new Map<string, string>();
  for (const { turns } of chain) for (const turn of turns) for (const snap of turn.fileSnapshots) snapshots.set(snap.path, snap.content);
  const roots = serverSettings().fileRoots;
  const resolved = new Map<string, FileReadResult & { source?: "snapshot" | "root" }>();
  await Promise.all(
    paths.map(async (path) => {
      const snapshot = snapshots.get(path);
      if (snapshot !== undefined) {
        resolved.set(path, { ok: true, content: snapshot, source: "snapshot" });
        return;
      }
      const read = await readFromRoots(path, roots);
      resolved.set(path, read.ok ? { ...read, source: "root" } : read);
    }),
  );
  return resolved;
}

/**
 * What a model would be sent to continue a thread: PAL's build_conversation_history over the
 * thread's chain, budgeted by the model's context window. "pal" reproduces PAL's text and figures
 * exactly (characters / 3 to budget, / 4 to report); "exact" runs the same algorithm with the
 * model's tokenizer, using stored per-turn counts.
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
  const chain = await getChain(threadId);
  const current = chain.at(-1)?.thread;
  if (!current) throw new AppError("not_found", `Thread ${threadId} not found`);

  const all = chain.flatMap(({ thread, turns }) => turns.map((turn) => ({ thread, turn })));
  const paths = conversationFileList(all.map(({ turn }) => turn));
  const files = await resolveFiles(chain, paths);

  let countTokens = palCountTokens;
  let reportTokens = palReportTokens;
  let tokenizer = { id: "chars/3+chars/4", label: "PAL estimate (characters / 3 to budget, / 4 to report)" };
  let exact = false;
  let contentTokens: Map<string, number> | null = null;
  if (query.mode === "exact") {
    let counter;
    try {
      counter = getTokenizer(query.tokenizer ?? model?.tokenizer ?? DEFAULT_TOKENIZER_ID);
    } catch (error) {
      throw new AppError("validation_failed", `tokenizer: ${error instanceof Error ? error.message : "unknown tokenizer"}`);
    }
    countTokens = (text) => counter.count(text);
    reportTokens = countTokens;
    tokenizer = { id: counter.id, label: counter.label };
    exact = counter.exact;
    contentTokens = await contentTokenCounts(all.map(({ turn }) => turn), counter.id, countTokens);
  }

  const built = buildConversationHistory({
    threadId: current.id,
    toolName: current.toolName,
    turns: all.map(({ turn }) => ({ ...turn, contentTokens: contentTokens?.get(turn.id) ?? null })),
    maxConversationTurns: serverSettings().maxTurns.value,
    allocation,
    readFile: (path) => files.get(path) ?? { ok: false, reason: "not resolved" },
    countTokens,
    reportTokens,
  });

  const used = built.totalTokens;
  return {
    model: model ? { id: model.id, provider: model.provider, contextWindow: model.contextWindow, maxOutputTokens: model.maxOutputTokens } : null,
    mode: query.mode,
    tokenizer,
    exact,
    allocation,
    files: {
      included: built.files.included.map((f) => ({ path: f.path, tokens: f.tokens, source: files.get(f.path)?.source ?? "snapshot" })),
      skipped: built.files.skipped.map((f) => ({ path: f.path, reason: f.reason, tokens: f.tokens })),
    },
    turns: built.turns,
    perTurn: built.perTurn.map((entry) => {
      const source = all[entry.number - 1];
      return { ...entry, threadId: source?.thread.id ?? "", turnId: source?.turn.id ?? "", index: source?.turn.index ?? 0 };
    }),
    sections: { ...built.sections, reservedForResponse: allocation.response, free: Math.max(0, allocation.total - allocation.response - used) },
    totalTokens: used,
    text: built.text,
  };
}
