import type { TurnPart } from "../../../lib/domain/types";
import { CONFIG, TARGETS } from "../config";
import { measure } from "../measure";
import { Bench } from "../section";
import { postJson } from "../server";

/**
 * The compaction workbench: an extractive preview of the whole 2,000-turn thread through the API
 * (plan, summary, o200k before and after, references), and what full and window compaction save
 * on the demo threads (computed in this process with the same domain functions).
 */
export async function sectionCompaction(bench: Bench): Promise<void> {
  const id = bench.fill.bigThreadId;
  let shown = { tokensBefore: 0, tokensAfter: 0, summaryChars: 0 };
  const preview = async () => {
    const response = await postJson<{ preview: { tokensBefore: number; tokensAfter: number; summary: string } }>(
      bench.baseUrl,
      `/api/threads/${id}/compactions`,
      { strategy: "full" },
    );
    if (response.status !== 200) throw new Error(`compaction preview -> ${response.status}`);
    const { tokensBefore, tokensAfter, summary } = response.json.preview;
    shown = { tokensBefore, tokensAfter, summaryChars: summary.length };
  };
  const result = await measure("compaction preview", preview, CONFIG.iterations.compaction);
  bench.record({
    section: "compaction",
    name: `POST /api/threads/:id/compactions, full, extractive (${CONFIG.bigThreadTurns} turns)`,
    stats: result,
    target: { metric: "p50", maxMs: TARGETS.compactionP50 },
    note: `${shown.tokensBefore.toLocaleString("en-US")} -> ${shown.tokensAfter.toLocaleString("en-US")} tokens, summary ${shown.summaryChars.toLocaleString("en-US")} chars`,
  });

  // Applying writes the revision: the first run, one summary turn, the newest 40 turns.
  const revisions: string[] = [];
  let revisionTurns = 0;
  const apply = async () => {
    const response = await postJson<{ thread: { id: string; turnCount: number } }>(bench.baseUrl, `/api/threads/${id}/compactions`, {
      strategy: "window",
      options: { maxTurns: 80 },
      apply: true,
    });
    if (response.status !== 201) throw new Error(`compaction apply -> ${response.status}`);
    revisions.push(response.json.thread.id);
    revisionTurns = response.json.thread.turnCount;
  };
  const applied = await measure("compaction apply", apply, 5);
  for (const revision of revisions) await fetch(`${bench.baseUrl}/api/threads/${revision}`, { method: "DELETE" });
  bench.record({
    section: "compaction",
    name: `POST /api/threads/:id/compactions, window, apply (${CONFIG.bigThreadTurns} turns)`,
    stats: applied,
    note: `a revision of ${revisionTurns} turns written, the original untouched`,
  });

  const { buildDemoDocument } = await import("../../../lib/demo/demo-data");
  const { planCompaction } = await import("../../../lib/domain/compaction/plan");
  const { extractiveSummary } = await import("../../../lib/domain/compaction/extractive");
  const { buildRevision } = await import("../../../lib/domain/compaction/revision");
  const { o200kBase } = await import("../../../lib/tokenizers/engines");
  const o200k = o200kBase();
  const count = (text: string) => o200k(text).tokens;
  for (const thread of buildDemoDocument().threads) {
    if (thread.turns.length < 4) continue;
    const turns = thread.turns.map((t, index) => ({
      index,
      role: t.role,
      content: t.content,
      parts: (t.parts ?? null) as TurnPart[] | null,
      toolName: t.toolName ?? null,
      modelName: t.modelName ?? null,
      files: t.files ?? [],
      images: t.images ?? [],
    }));
    const before = turns.reduce((sum, t) => sum + count(t.content), 0);
    for (const options of [{ strategy: "full" as const }, { strategy: "window" as const, trigger: "turns" as const, maxTurns: 40 }]) {
      const plan = planCompaction(turns, options);
      if (plan.noop) continue;
      const revision = buildRevision(turns, plan, extractiveSummary(plan.replaced.map((i) => turns[i]!)));
      const after = revision.reduce((sum, t) => sum + count(t.content), 0);
      bench.record({
        section: "compaction",
        name: `demo "${thread.title}" (${turns.length} turns), ${options.strategy === "full" ? "full" : "window of 40"}`,
        value: (1 - after / before) * 100,
        unit: "% fewer tokens",
        note: `${before.toLocaleString("en-US")} -> ${after.toLocaleString("en-US")} o200k tokens, ${turns.length} -> ${revision.length} turns`,
      });
    }
  }
}
