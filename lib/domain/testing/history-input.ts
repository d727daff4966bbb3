import { calculateTokenAllocation } from "../history/allocation";
import type { BuildHistoryInput } from "../history/build-history";
import { palCountTokens, palReportTokens, type FileReadResult } from "../history/pal";

/** Test-only builders for conversation histories. */

/** PAL's settings (200k context, 50 turns, its token estimates) with the given turns and overrides. */
export function palInput(overrides: Partial<BuildHistoryInput> & Pick<BuildHistoryInput, "turns">): BuildHistoryInput {
  return {
    threadId: "thread-1",
    toolName: "chat",
    maxConversationTurns: 50,
    allocation: calculateTokenAllocation(200_000),
    readFile: () => ({ ok: false, reason: "no files expected" }),
    countTokens: palCountTokens,
    reportTokens: palReportTokens,
    ...overrides,
  };
}

/** A file reader over fixed contents that records which paths were asked for, in order. */
export function snapshotReader(files: Record<string, FileReadResult>) {
  const calls: string[] = [];
  const readFile = (path: string): FileReadResult => {
    calls.push(path);
    return files[path] ?? { ok: false, reason: "not in snapshot" };
  };
  return { calls, readFile };
}
