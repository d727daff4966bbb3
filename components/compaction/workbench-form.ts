// The workbench's form and what it asks of the API: pure, so it is tested without a browser.
import { plural } from "@/lib/format";
import type { CompactionJobRecord, CompactionPreview, CompactionRequestBody, TurnSummary } from "@/lib/queries/compactions";

export type WorkbenchTurn = TurnSummary;
export type Strategy = CompactionRequestBody["strategy"];
export type Summarizer = CompactionRequestBody["summarizer"];

export const STRATEGIES: { id: Strategy; label: string; hint: string }[] = [
  { id: "full", label: "Full compact", hint: "The whole history becomes a summary and an acknowledgement (co-cli's /compact)." },
  { id: "window", label: "Sliding window", hint: "Keeps the first exchange and the newest turns; the middle becomes one summary." },
  { id: "range", label: "Range", hint: "Summarise up to a turn, or from a turn on (as Claude Code's rewind menu)." },
  { id: "trim-tool-output", label: "Trim tool output", hint: "Cuts old tool outputs to their head and tail; no summary needed." },
];
export const SUMMARIZERS: { id: Summarizer; label: string }[] = [
  { id: "extractive", label: "Extractive (offline)" },
  { id: "llm", label: "LLM" },
  { id: "marker", label: "Static marker" },
];

export type Form = {
  strategy: Strategy;
  summarizer: Summarizer;
  llmModel: string;
  targetModel: string;
  instructions: string;
  window: { trigger: "turns" | "tokens"; maxTurns: string; maxTokens: string };
  range: { direction: "up-to" | "from"; at: number };
  trim: { maxChars: string };
};

export function requestOf(form: Form, models: string[]): CompactionRequestBody {
  const options: Record<string, unknown> =
    form.strategy === "window"
      ? form.window.trigger === "tokens"
        ? { trigger: "tokens", maxTokens: Number(form.window.maxTokens || 0) }
        : { trigger: "turns", maxTurns: Number(form.window.maxTurns || 0) }
      : form.strategy === "range"
        ? { direction: form.range.direction, at: form.range.at }
        : form.strategy === "trim-tool-output"
          ? { maxChars: Number(form.trim.maxChars || 0) }
          : {};
  return {
    strategy: form.strategy,
    summarizer: form.summarizer,
    ...(form.summarizer === "llm" && form.llmModel.trim() ? { model: form.llmModel.trim() } : {}),
    // A model name still being typed is not sent: the default tokenizer measures meanwhile.
    ...(models.includes(form.targetModel.trim()) ? { targetModel: form.targetModel.trim() } : {}),
    ...(form.instructions.trim() ? { instructions: form.instructions.trim() } : {}),
    options,
  };
}

export function formFromJob(job: CompactionJobRecord, base: Form): Form {
  const request = job.request as unknown as CompactionRequestBody;
  const options = request.options as Record<string, string | number>;
  return {
    ...base,
    strategy: request.strategy,
    summarizer: "llm",
    llmModel: request.model ?? base.llmModel,
    targetModel: request.targetModel ?? base.targetModel,
    instructions: request.instructions ?? "",
    window:
      request.strategy === "window"
        ? {
            trigger: options.trigger === "tokens" ? "tokens" : "turns",
            maxTurns: String(options.maxTurns ?? 40),
            maxTokens: String(options.maxTokens ?? 0),
          }
        : base.window,
    range:
      request.strategy === "range"
        ? { direction: options.direction === "from" ? "from" : "up-to", at: Number(options.at ?? 0) }
        : base.range,
    trim: request.strategy === "trim-tool-output" ? { maxChars: String(options.maxChars ?? 2000) } : base.trim,
  };
}

/** Which turns a plan keeps, in words ("#1-#2 before the summary, #9-#10 after it"). */
export function describeKept(preview: CompactionPreview, total: number, replaced: Set<number>): string {
  if (preview.plan.replaced.length === 0)
    return `all ${plural(total, "turn")}, ${plural(preview.plan.trimmed.length, "tool output")} shortened`;
  const ranges = (indexes: number[]) =>
    indexes.length === 0 ? null : indexes.length === 1 ? `#${indexes[0]! + 1}` : `#${indexes[0]! + 1}-#${indexes.at(-1)! + 1}`;
  const before = ranges(preview.plan.keptBefore);
  const after = ranges(preview.plan.keptAfter);
  const parts = [before && `${before} before the summary`, after && `${after} after it`].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : `nothing: all ${plural(replaced.size, "turn")} become the summary`;
}
