/**
 * What both readable formats say about a thread and its turns, worded once: the header's facts
 * (as the thread page's header words them), a turn's heading and its table-of-contents preview.
 */
import { attributionBesideRole, roleLabel } from "@/lib/domain/display/attribution";
import { sourceLabel } from "@/lib/domain/display/source";
import { readableText } from "@/lib/domain/display/transcript-display";
import { costText, coverageText, tokenText } from "@/lib/domain/usage/thread-figures";
import { formatUsd } from "@/lib/domain/usage/cost";
import type { ToolView } from "@/lib/domain/tools/tool-view";
import type { ResponseCost, Turn, TurnUsage } from "@/lib/domain/types";
import { contentPreview, formatDateTime, plural, usageSummary } from "@/lib/format";
import type { ReadableThread } from "./types";

export type Fact = { term: string; value: string };

/** Agent (or source), project, models, first and last turn, size, what the session used. */
export function threadFacts({ thread, turns, figures }: ReadableThread): Fact[] {
  const facts: Fact[] = [{ term: thread.source.startsWith("import:") ? "Agent" : "Source", value: sourceLabel(thread.source) }];
  if (thread.project) facts.push({ term: "Project", value: thread.project });
  if (thread.modelsUsed.length > 0) facts.push({ term: "Models", value: thread.modelsUsed.join(", ") });
  facts.push({ term: "First", value: formatDateTime(turns[0]?.timestamp ?? thread.createdAt) });
  facts.push({ term: "Last", value: formatDateTime(turns.at(-1)?.timestamp ?? thread.lastUpdatedAt) });
  facts.push({ term: "Size", value: plural(turns.length, "turn") });
  if (figures && figures.total.responses > 0) {
    const covers = coverageText(figures);
    const reported = figures.reported ? ` (agent says ${formatUsd(figures.reported.usd)})` : "";
    facts.push({ term: "Used", value: `${tokenText(figures.total)} · ${costText(figures.total)}${reported}${covers ? ` ${covers}` : ""}` });
  }
  return facts;
}

/** "#3 · Assistant · claude-sonnet-4-5 · 22 Nov 2026, 10:42 UTC": a turn's heading. */
export function turnHeading(turn: Turn): string {
  const attribution = attributionBesideRole(turn);
  return [`#${turn.index + 1}`, roleLabel(turn.role), attribution || null, formatDateTime(turn.timestamp)].filter(Boolean).join(" · ");
}

const PREVIEW_CHARS = 80;

/** A turn in a line, for the table of contents: its text, else what its parts are. */
export function turnPreview(turn: Turn): string {
  const text = readableText(turn.role, turn.content).replace(/\s+/g, " ").trim();
  if (text !== "") return text.length > PREVIEW_CHARS ? `${contentPreview(text, PREVIEW_CHARS - 1)}…` : text;
  const calls = (turn.parts ?? []).flatMap((part) => (part.type === "tool_call" ? [part.name] : []));
  if (calls.length > 0) return `${plural(calls.length, "tool call")}: ${[...new Set(calls)].join(", ")}`;
  if (turn.parts?.some((part) => part.type === "tool_result")) return "tool result";
  return "(empty)";
}

/** "Usage in 3 · out 9 · $0.0012 (reported)": a response's usage and price, as the page's usage line. */
export function usageLine(usage: TurnUsage, cost: ResponseCost | null | undefined): string {
  const price = cost ? (cost.priced ? formatUsd(cost.totalUsd) : "unpriced") : null;
  const reported = cost?.reportedUsd !== undefined ? `(agent says ${formatUsd(cost.reportedUsd)})` : null;
  return ["Usage", usageSummary(usage), price && `· ${price}`, reported, `(${usage.source})`].filter(Boolean).join(" ");
}

/** The short facts a tool call of these kinds is shown by (a missing value is left out where they are shown). */
export function toolViewFacts(
  view: Extract<ToolView, { kind: "read" | "search" | "web-fetch" | "web-search" | "task" }>,
): [string, string | null][] {
  switch (view.kind) {
    case "read":
      return [
        [view.paths.length > 1 ? "Files" : "File", view.paths.join(", ")],
        ["Range", view.range],
      ];
    case "search":
      return [
        [view.mode === "glob" ? "Files matching" : "Pattern", view.pattern],
        ["In", view.path],
        ["Only", view.filter],
      ];
    case "web-fetch":
      return [["URL", view.url]];
    case "web-search":
      return [["Query", view.query]];
    case "task":
      return [
        ["Task", view.description],
        ["Agent", view.agent],
      ];
  }
}
