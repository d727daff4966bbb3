/**
 * The extractive summariser on real agent transcripts (fixtures/real, imported by the same
 * parsers as `npm run import`): every file path and tool name the turns mention survives in the
 * summary of a full compaction, which stays within its bound apart from that list.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractiveSummary, DEFAULT_SUMMARY_CHARS } from "@/lib/domain/compaction/extractive";
import { collectReferences, missingReferences } from "@/lib/domain/compaction/references";
import type { CompactionTurn } from "@/lib/domain/compaction/types";
import { parseRealTranscript, REAL_TRANSCRIPTS, realTranscriptFiles } from "@/lib/testing/real-transcripts";

const ROOT = REAL_TRANSCRIPTS;
const cases = [...realTranscriptFiles()].map((file) => path.relative(ROOT, file));

describe("extractive summaries of real transcripts", () => {
  it("has transcripts of every format to read", () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases)("%s: every path and tool name kept", async (relative) => {
    const name = path.join(ROOT, relative);
    const parsed = await parseRealTranscript(name);
    const threads = parsed.threads.filter((t) => t.turns.length > 1);
    // A Claude Code compaction agent's file makes no thread (its summary is in the main session).
    if (relative.includes("agent-acompact")) return expect(threads).toEqual([]);
    expect(threads.length).toBeGreaterThan(0);
    for (const thread of threads) {
      const turns: CompactionTurn[] = thread.turns.map((t, index) => ({
        index,
        role: t.role,
        content: t.content,
        parts: t.parts ?? null,
        toolName: t.toolName ?? null,
        modelName: t.modelName ?? null,
        files: t.files ?? [],
        images: t.images ?? [],
      }));
      const summary = extractiveSummary(turns);
      const references = collectReferences(turns);
      expect(missingReferences(references, summary), `${relative} ${thread.key}`).toEqual({ paths: [], tools: [] });
      const listed = [...references.paths, ...references.tools].reduce((n, ref) => n + ref.length + 4, 0);
      expect(summary.length).toBeLessThanOrEqual(DEFAULT_SUMMARY_CHARS + listed + 200);
      if (turns.some((t) => t.role === "user" && t.content.trim() !== "")) expect(summary).toContain("User requests");
    }
  });
});
