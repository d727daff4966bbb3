/**
 * The conversation history handed to a model when a thread is continued: PAL's
 * build_conversation_history, _plan_file_inclusion_by_size and _default_turn_formatting
 * (BeehiveInnovations/pal-mcp-server utils/conversation_memory.py, with block structure checked against
 * tanji-dg/pal-mcp-server utils/conversation_memory.py @ 449ff7aed3b5b41c06805e85deb66a2ef22be6c1).
 *
 * Pure: no file system, no clock, no environment. The caller decides which turns (the merged
 * chain), which files can be read (snapshots or allowed roots, through `readFile`) and how tokens
 * are counted. With the PAL counters (`palCountTokens`, `palReportTokens`) and PAL's file
 * estimate (the default) the text is byte for byte what PAL builds for the same thread and files.
 * The text layout is always PAL's; only the counting is pluggable.
 *
 * PAL quirks reproduced on purpose:
 * - The FILES header carries an empty line where the "[NOTE: N files omitted ...]" line would go
 *   when nothing was skipped.
 * - When every file is skipped, no FILES header is written but "=== END REFERENCED FILES ===" still
 *   is (the closing lines sit under `if all_files`, the header under `if files_to_include`).
 * - The history budget check counts what is already written (header + embedded files) as the
 *   sum of countTokens over the separate parts, not over their "\n"-joined text.
 * - Turn collection stops at the first turn (newest to oldest) that does not fit; an older,
 *   smaller turn is not tried.
 * - Every role other than "user" is labelled with its model name or "Assistant"; the model name is
 *   repeated after " via" only when it differs from that label.
 * - "Turn {total}/{max}" counts all turns of the chain, and the closing line says "This is turn
 *   {total + 1}", even when the thread is already at its limit.
 * - Budgeting uses countTokens (PAL: code points // 3) while the returned total uses reportTokens
 *   (PAL: code points // 4); files are planned with estimate_file_tokens (bytes / extension ratio).
 */
import { palEstimateFileTokens, palFileBlock, type FileReadResult, type FileSnapshot } from "./pal";
import { conversationFileList } from "./file-list";

export type HistoryTurn = {
  /** "user" is the agent's request; anything else ("assistant", "system", "tool") is labelled by model. */
  role: string;
  content: string;
  files?: readonly string[] | null;
  toolName?: string | null;
  modelProvider?: string | null;
  modelName?: string | null;
};

/** A turn without its content: enough to plan which turns fit, given a way to measure each. */
export type HistoryTurnOutline = Omit<HistoryTurn, "content">;

export type BuildHistoryInput = {
  /** The thread being continued (the newest of the chain). */
  threadId: string;
  /** The tool that started the thread being continued ("Tool: ..." line). */
  toolName: string;
  /** Every turn of the chain, oldest first; numbering in the text is 1-based over this list. */
  turns: readonly HistoryTurn[];
  /** MAX_CONVERSATION_TURNS, for the "Turn {n}/{max}" line. */
  maxConversationTurns: number;
  /** Budgets from calculateTokenAllocation: `file` for planning files, `history` for the whole text. */
  allocation: { file: number; history: number };
  /** Reads a referenced file from a snapshot or an allowed root. Never called for a thread without turns. */
  readFile: (path: string) => FileReadResult;
  /** Counter for budgeting and for the breakdown (PAL: palCountTokens). */
  countTokens: (text: string) => number;
  /** Counter for `totalTokens` (PAL: palReportTokens). */
  reportTokens: (text: string) => number;
  /** Tokens a file is planned at against the file budget. Default: PAL's estimate_file_tokens. */
  estimateFileTokens?: (path: string, file: FileSnapshot) => number;
  /** countTokens of the file's block (palFileBlock), for a caller that remembers them. Default: counted each time. */
  fileBlockTokens?: (path: string, file: FileSnapshot) => number;
  /**
   * A tool's own format_conversation_turn, returning the turn's body lines, or null for the
   * default ("Files used in this turn: ...", "", content). No current PAL tool overrides the
   * default (only the old, pre-workflow consensus tool did).
   */
  formatTurnBody?: (turn: HistoryTurn) => readonly string[] | null | undefined;
};

/**
 * Planning needs no turn content: `turnTokens` measures each turn (what countTokens would give
 * for its text, header included), typically from counts stored per turn; see turnShell.
 */
export type PlanHistoryInput<T extends HistoryTurnOutline = HistoryTurnOutline> = Omit<BuildHistoryInput, "turns" | "formatTurnBody"> & {
  turns: readonly T[];
  turnTokens: (turn: T, turnNumber: number) => number;
  /**
   * Measure every turn for the per-turn breakdown (the default). Without it only the turns
   * collected are measured, newest first until one does not fit: the work is bounded by what is
   * sent, not by the thread's length.
   */
  breakdown?: boolean;
  /** conversationFileList(turns), for a caller that has it already. */
  fileList?: readonly string[];
};

/** Which turns and files fit, and what each costs: everything of the history but the turn texts. */
export type HistoryPlan = {
  /** Text parts before the turns: header lines, the file section and its notes. */
  leadingParts: string[];
  /** The parts of leadingParts that are notes, plus the omitted-files note. */
  noteParts: string[];
  /** Every turn's tokens, oldest first; empty unless the plan was asked for the breakdown. */
  perTurn: PerTurnTokens[];
  /** The tokens of the included turns (from oldestIncluded on), oldest first. */
  includedTokens: number[];
  /** 0-based index of the oldest included turn (turns.length when none is). */
  oldestIncluded: number;
  files: { included: IncludedFile[]; skipped: SkippedFile[] };
  /** Tokens of the embedded file blocks. */
  fileTokens: number;
  turnCount: number;
};

type PerTurnTokens = {
  /** 1-based position in the chain. */
  number: number;
  role: string;
  toolName: string | null;
  /** What the turn costs (or would cost) in the history, by countTokens. */
  tokens: number;
  included: boolean;
};

type IncludedFile = {
  path: string;
  /** countTokens of the block embedded in the text. */
  tokens: number;
  /** The estimate planned against the file budget. */
  estimatedTokens: number;
};

type SkippedFile = {
  path: string;
  kind: "budget" | "unreadable";
  reason: string;
  /** countTokens of the block it would have been; null when it could not be read. */
  tokens: number | null;
  /** The estimate planned against the file budget; null when it could not be read. */
  estimatedTokens: number | null;
};

type HistorySections = {
  /** Embedded file blocks. */
  files: number;
  userTurns: number;
  assistantTurns: number;
  systemTurns: number;
  /** Turns with role "tool". */
  toolOutput: number;
  /** Header, file-section framing, notes and closing instructions. */
  notes: number;
};

/**
 * Which turns the history sends, as PAL picks them: always the newest, turns firstIncluded..total
 * (numbered from 1, oldest first); the excludedCount oldest are cut. A range, not lists: a
 * 10,000-turn chain's preview sends about 200 turns and need not name the other 9,800.
 */
export type TurnSelection = { total: number; includedCount: number; excludedCount: number; firstIncluded: number | null };

export type BuiltHistory = {
  text: string;
  /** reportTokens(text). */
  totalTokens: number;
  turns: TurnSelection;
  /** Every turn, oldest first. */
  perTurn: PerTurnTokens[];
  files: { included: IncludedFile[]; skipped: SkippedFile[] };
  /** Included content by kind, each part measured with countTokens. */
  sections: HistorySections;
};

const EMPTY_SECTIONS: HistorySections = {
  files: 0,
  userTurns: 0,
  assistantTurns: 0,
  systemTurns: 0,
  toolOutput: 0,
  notes: 0,
};

/** Python truthiness for optional strings: null, undefined and "" are all false. */
function present(value: string | null | undefined): value is string {
  return value != null && value !== "";
}

/** _default_turn_formatting. */
function defaultTurnBody(turn: HistoryTurn): string[] {
  const parts: string[] = [];
  if (turn.files && turn.files.length > 0) {
    parts.push(`Files used in this turn: ${turn.files.join(", ")}`);
    parts.push("");
  }
  parts.push(turn.content);
  return parts;
}

/**
 * The "--- Turn N (...) ---" header, with PAL's leading newline.
 * @internal exported for its tests
 */
export function turnHeader(turn: HistoryTurnOutline, turnNumber: number): string {
  const roleLabel = turn.role === "user" ? "Agent" : present(turn.modelName) ? turn.modelName : "Assistant";
  let header = `\n--- Turn ${turnNumber} (${roleLabel}`;
  if (present(turn.toolName)) header += ` using ${turn.toolName}`;
  if (present(turn.modelProvider)) {
    let provider = turn.modelProvider;
    if (present(turn.modelName) && turn.modelName !== roleLabel) provider += `/${turn.modelName}`;
    header += ` via ${provider}`;
  } else if (present(turn.modelName) && turn.modelName !== roleLabel) {
    header += ` via ${turn.modelName}`;
  }
  return `${header}) ---`;
}

function turnBody(turn: HistoryTurn, format: BuildHistoryInput["formatTurnBody"]): readonly string[] {
  return format?.(turn) ?? defaultTurnBody(turn);
}

type PlannedFile = { path: string; snapshot: FileSnapshot; estimatedTokens: number };

type FilePlan = { include: PlannedFile[]; skipped: SkippedFile[] };

/** _plan_file_inclusion_by_size: newest first, skip what does not fit and keep going. */
function planFiles(
  paths: readonly string[],
  input: Pick<BuildHistoryInput, "readFile" | "estimateFileTokens" | "fileBlockTokens" | "allocation" | "countTokens">,
): FilePlan {
  const estimate = input.estimateFileTokens ?? palEstimateFileTokens;
  const blockTokens = input.fileBlockTokens ?? ((path: string, file: FileSnapshot) => input.countTokens(palFileBlock(path, file)));
  const include: PlannedFile[] = [];
  const skipped: SkippedFile[] = [];
  let total = 0;
  for (const path of paths) {
    const read = input.readFile(path);
    if (!read.ok) {
      skipped.push({ path, kind: "unreadable", reason: read.reason, tokens: null, estimatedTokens: null });
      continue;
    }
    const estimatedTokens = estimate(path, read);
    if (total + estimatedTokens <= input.allocation.file) {
      include.push({ path, snapshot: read, estimatedTokens });
      total += estimatedTokens;
    } else {
      skipped.push({
        path,
        kind: "budget",
        reason: `needs ${estimatedTokens} tokens; ${input.allocation.file - total} of the ${input.allocation.file}-token file budget left`,
        tokens: blockTokens(path, read),
        estimatedTokens,
      });
    }
  }
  return { include, skipped };
}

function sectionFor(role: string): keyof HistorySections {
  if (role === "user") return "userTurns";
  if (role === "tool") return "toolOutput";
  if (role === "system") return "systemTurns";
  return "assistantTurns";
}

/**
 * The turn's text with an empty content: header and body framing (the files line). With the
 * default formatting a turn's text is exactly this followed by its content, so a tokenizer whose
 * pieces never span that boundary counts it as count(shell) + count(content); PAL's code-point
 * estimates add up exactly in code points.
 */
export function turnShell(turn: HistoryTurnOutline, turnNumber: number): string {
  // [header, ...defaultTurnBody(turn with content "")].join("\n"), without the arrays.
  const header = turnHeader(turn, turnNumber);
  return turn.files && turn.files.length > 0 ? `${header}\nFiles used in this turn: ${turn.files.join(", ")}\n\n` : `${header}\n`;
}

function turnText(turn: HistoryTurn, turnNumber: number, format: BuildHistoryInput["formatTurnBody"]): string {
  return [turnHeader(turn, turnNumber), ...turnBody(turn, format)].join("\n");
}

/** The first half of build_conversation_history: plan files, measure turns, collect newest first. */
export function planConversationHistory<T extends HistoryTurnOutline>(input: PlanHistoryInput<T>): HistoryPlan {
  const { turns, countTokens } = input;
  const leadingParts: string[] = [];
  // Parts that are neither file blocks nor turns: measured one by one into `notes`.
  const noteParts: string[] = [];
  const addNote = (...lines: string[]) => {
    leadingParts.push(...lines);
    noteParts.push(...lines);
  };

  addNote(
    "=== CONVERSATION HISTORY (CONTINUATION) ===",
    `Thread: ${input.threadId}`,
    `Tool: ${input.toolName}`,
    `Turn ${turns.length}/${input.maxConversationTurns}`,
    "You are continuing this conversation thread from where it left off.",
    "",
  );

  const allFiles = input.fileList ?? conversationFileList(turns);
  const includedFiles: IncludedFile[] = [];
  let skippedFiles: SkippedFile[] = [];
  let fileTokens = 0;
  if (allFiles.length > 0) {
    const plan = planFiles(allFiles, input);
    skippedFiles = plan.skipped;
    const skippedCount = plan.skipped.length;
    if (plan.include.length > 0) {
      addNote(
        "=== FILES REFERENCED IN THIS CONVERSATION ===",
        "The following files have been shared and analyzed during our conversation.",
        skippedCount === 0 ? "" : `[NOTE: ${skippedCount} files omitted (size constraints, missing files, or access issues)]`,
        "Refer to these when analyzing the context and requests below:",
        "",
      );
      let filesContent = "";
      for (const file of plan.include) {
        const block = palFileBlock(file.path, file.snapshot);
        const tokens = input.fileBlockTokens ? input.fileBlockTokens(file.path, file.snapshot) : countTokens(block);
        filesContent += block;
        fileTokens += tokens;
        includedFiles.push({ path: file.path, tokens, estimatedTokens: file.estimatedTokens });
      }
      if (skippedCount > 0) {
        const note =
          `\n[NOTE: ${skippedCount} additional file(s) were omitted due to size constraints, missing files, or access issues. ` +
          "These were older files from earlier conversation turns.]\n";
        filesContent += note;
        noteParts.push(note);
      }
      leadingParts.push(filesContent);
    }
    addNote("", "=== END REFERENCED FILES ===", "");
  }

  addNote("Previous conversation turns:");

  // PAL's file_embedding_tokens: everything written so far, counted part by part.
  const writtenTokens = leadingParts.reduce((sum, part) => sum + countTokens(part), 0);

  const breakdown = input.breakdown ?? true;
  const perTurn: PerTurnTokens[] = breakdown
    ? turns.map((turn, idx) => ({
        number: idx + 1,
        role: turn.role,
        toolName: present(turn.toolName) ? turn.toolName : null,
        tokens: input.turnTokens(turn, idx + 1),
        included: false,
      }))
    : [];

  // Collection, newest first: stop at the first turn that would exceed the history budget.
  let turnTokens = 0;
  let oldestIncluded = turns.length;
  const includedTokens: number[] = [];
  for (let idx = turns.length - 1; idx >= 0; idx--) {
    const tokens = breakdown ? perTurn[idx]!.tokens : input.turnTokens(turns[idx]!, idx + 1);
    if (writtenTokens + turnTokens + tokens > input.allocation.history) break;
    turnTokens += tokens;
    includedTokens.push(tokens);
    if (breakdown) perTurn[idx]!.included = true;
    oldestIncluded = idx;
  }
  includedTokens.reverse();

  return {
    leadingParts,
    noteParts,
    perTurn,
    includedTokens,
    oldestIncluded,
    files: { included: includedFiles, skipped: skippedFiles },
    fileTokens,
    turnCount: turns.length,
  };
}

/**
 * The second half: the text, given the included turns (those from plan.oldestIncluded on, in
 * order, with their content).
 */
export function renderConversationHistory(
  plan: HistoryPlan,
  includedTurns: readonly HistoryTurn[],
  input: Pick<BuildHistoryInput, "countTokens" | "reportTokens" | "formatTurnBody">,
): BuiltHistory {
  const total = plan.turnCount;
  if (includedTurns.length !== total - plan.oldestIncluded) {
    throw new Error(`renderConversationHistory: expected ${total - plan.oldestIncluded} included turns, got ${includedTurns.length}`);
  }
  const sections: HistorySections = { ...EMPTY_SECTIONS, files: plan.fileTokens };
  const parts = [...plan.leadingParts];
  const noteParts = [...plan.noteParts];
  const addNote = (...lines: string[]) => {
    parts.push(...lines);
    noteParts.push(...lines);
  };

  // Presentation, oldest first.
  includedTurns.forEach((turn, offset) => {
    const idx = plan.oldestIncluded + offset;
    parts.push(turnText(turn, idx + 1, input.formatTurnBody));
    sections[sectionFor(turn.role)] += plan.includedTokens[offset]!;
  });

  if (includedTurns.length < total) {
    addNote(`\n[Note: Showing ${includedTurns.length} most recent turns out of ${total} total]`);
  }

  addNote(
    "",
    "=== END CONVERSATION HISTORY ===",
    "",
    "IMPORTANT: You are continuing an existing conversation thread. Build upon the previous exchanges shown above,",
    "reference earlier points, and maintain consistency with what has been discussed.",
    "",
    "DO NOT repeat or summarize previous analysis, findings, or instructions that are already covered in the",
    "conversation history. Instead, provide only new insights, additional analysis, or direct answers to",
    "the follow-up question / concerns / insights. Assume the user has read the prior conversation.",
    "",
    `This is turn ${total + 1} of the conversation - use the conversation history above to provide a coherent continuation.`,
  );

  sections.notes = noteParts.reduce((sum, part) => sum + input.countTokens(part), 0);
  const text = parts.join("\n");
  return {
    text,
    totalTokens: input.reportTokens(text),
    turns: {
      total,
      includedCount: total - plan.oldestIncluded,
      excludedCount: plan.oldestIncluded,
      firstIncluded: plan.oldestIncluded < total ? plan.oldestIncluded + 1 : null,
    },
    perTurn: plan.perTurn,
    files: plan.files,
    sections,
  };
}

/** build_conversation_history over turns with their content: plan, then render. */
export function buildConversationHistory(input: BuildHistoryInput): BuiltHistory {
  if (input.turns.length === 0) {
    return {
      text: "",
      totalTokens: 0,
      turns: { total: 0, includedCount: 0, excludedCount: 0, firstIncluded: null },
      perTurn: [],
      files: { included: [], skipped: [] },
      sections: { ...EMPTY_SECTIONS },
    };
  }
  const plan = planConversationHistory({
    ...input,
    turnTokens: (turn, turnNumber) => input.countTokens(turnText(turn, turnNumber, input.formatTurnBody)),
  });
  return renderConversationHistory(plan, input.turns.slice(plan.oldestIncluded), input);
}
