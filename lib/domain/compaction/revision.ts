import type { TurnPart } from "@/lib/domain/types";
import { trimMarker, trimText } from "./trim";
import { outputText, partsOf } from "./turn-content";
import {
  FULL_ACKNOWLEDGEMENT,
  FULL_SUMMARY_HEADER,
  summaryHeader,
  type CompactionPlan,
  type CompactionTurn,
  type RevisionTurn,
  type TrimmedOutput,
} from "./types";

/**
 * The turns of the compacted revision, in order. The original turns are never changed: kept turns
 * are copied (trimmed ones with their outputs cut), and the summary turn stands where the replaced
 * run was. Throws for a noop plan, which has nothing to build.
 */
export function buildRevision(turns: CompactionTurn[], plan: CompactionPlan, summary: string): RevisionTurn[] {
  if (plan.noop !== null) throw new Error(`Nothing to build: the plan changes nothing (${plan.noop})`);
  const turnAt = (index: number): CompactionTurn => {
    const turn = turns[index];
    if (!turn) throw new RangeError(`The plan names turn ${index}, but the thread has turns 0..${turns.length - 1}.`);
    return turn;
  };

  switch (plan.strategy) {
    case "full": {
      const content = `${FULL_SUMMARY_HEADER}\n${summary}`;
      return [
        summaryTurn(content, plan),
        {
          from: null,
          role: "assistant",
          content: FULL_ACKNOWLEDGEMENT,
          parts: null,
          toolName: null,
          modelName: null,
          files: [],
          images: [],
        },
      ];
    }
    case "window":
    case "range":
      return [
        ...plan.keptBefore.map((index) => copyTurn(turnAt(index))),
        summaryTurn(`${summaryHeader(plan.replaced.length)}\n${summary}`, plan),
        ...plan.keptAfter.map((index) => copyTurn(turnAt(index))),
      ];
    case "trim-tool-output": {
      const byTurn = new Map<number, TrimmedOutput[]>();
      for (const item of plan.trimmed) byTurn.set(item.index, [...(byTurn.get(item.index) ?? []), item]);
      return turns.map((turn, index) => {
        const items = byTurn.get(index);
        return items ? trimTurn(turn, items, plan.trimChars) : copyTurn(turn);
      });
    }
  }
}

/** The summary, marked with a compaction part so readers (and the UI) can tell it from a real prompt. */
function summaryTurn(content: string, plan: CompactionPlan): RevisionTurn {
  const parts: TurnPart[] = [
    {
      type: "compaction",
      trigger: "threadline",
      strategy: plan.strategy,
      replacedTurns: plan.replaced.length,
      tokensBefore: null,
      tokensAfter: null,
    },
    { type: "text", text: content },
  ];
  return { from: null, role: "user", content, parts, toolName: null, modelName: null, files: [], images: [] };
}

function copyTurn(turn: CompactionTurn): RevisionTurn {
  return {
    from: turn.index,
    role: turn.role,
    content: turn.content,
    parts: turn.parts ? [...turn.parts] : null,
    toolName: turn.toolName,
    modelName: turn.modelName,
    files: [...turn.files],
    images: [...turn.images],
  };
}

/**
 * Cuts the planned outputs of one turn. A tool_result keeps its toolCallId (the model can still
 * refer to the call); its content becomes a string, as in co-cli. The turn's content is cut too,
 * so the readable rendering (and the tokens counted from it) agrees with the parts: each cut
 * output is replaced where it occurs verbatim in the content, once and in part order (a turn with
 * parallel tool results joins all their outputs). An output the content does not hold verbatim
 * leaves the content as it is.
 */
function trimTurn(turn: CompactionTurn, items: TrimmedOutput[], trimChars: number | undefined): RevisionTurn {
  const copy = copyTurn(turn);
  const parts = partsOf(turn);
  let content = turn.content;
  const newParts = parts.length > 0 ? [...parts] : null;
  // Where the next output is looked for in content: after the previous replacement.
  let from = 0;
  const ordered = [...items].sort((a, b) => (a.partIndex ?? -1) - (b.partIndex ?? -1));
  for (const item of ordered) {
    if (item.partIndex === null) {
      // A tool turn whose content is the output; text parts repeating it are cut alike.
      const original = turn.content;
      content = cutTo(original, item, trimChars);
      newParts?.forEach((part, i) => {
        if (part.type === "text" && part.text === original) newParts[i] = { ...part, text: content };
      });
      continue;
    }
    const part = parts[item.partIndex];
    if (!part || part.type !== "tool_result") {
      throw new RangeError(`The plan trims part ${item.partIndex} of turn ${item.index}, which is not a tool result.`);
    }
    const original = outputText(part.content);
    const cut = cutTo(original, item, trimChars);
    newParts![item.partIndex] = { ...part, content: cut };
    const at = original === "" ? -1 : content.indexOf(original, from);
    if (at >= 0) {
      content = content.slice(0, at) + cut + content.slice(at + original.length);
      from = at + cut.length;
    }
  }
  return { ...copy, content, parts: newParts };
}

/**
 * The output cut as the plan recorded it: to the plan's trimChars, or, for a plan built without
 * it, to the budget that gives the recorded charsAfter. The kept length alone does not say the
 * budget: a cut that would split a surrogate pair keeps one or two characters fewer.
 */
function cutTo(original: string, item: TrimmedOutput, trimChars: number | undefined): string {
  if (trimChars !== undefined) return trimText(original, trimChars);
  const kept = Math.max(1, item.charsAfter - trimMarker(item.charsBefore).length);
  for (let budget = kept; budget <= kept + 2; budget++) {
    const cut = trimText(original, budget);
    if (cut.length === item.charsAfter) return cut;
  }
  return trimText(original, kept);
}
