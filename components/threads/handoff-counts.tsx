import Link from "next/link";
import { plural } from "@/lib/format";
import type { HandoffAnswer } from "@/lib/domain/history/handoff";
import type { HandoffTurn } from "@/lib/queries/handoff";
import { skippedGroups, turnHref } from "@/lib/queries/handoff";

/**
 * What the orchestrator's rules did to the turns: how many messages it keeps, which turns it
 * skips and why (the seed's own warnings), how many it truncates and how much that cuts. Shared by
 * the thread page's preview and the budget page's section.
 */
export function HandoffCounts({ answer, turns }: { answer: HandoffAnswer; turns: HandoffTurn[] }) {
  const groups = skippedGroups(turns);
  return (
    <div className="text-sm">
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <span data-testid="handoff-kept">{plural(answer.conversationMessagesCount, "message")} kept</span>
        <span data-testid="handoff-skipped">{answer.skipped.length} skipped</span>
        <span data-testid="handoff-cut">
          {answer.cut.messages} truncated, {answer.cut.characters.toLocaleString("en-US")}{" "}
          {answer.cut.characters === 1 ? "character" : "characters"} cut
        </span>
        {answer.range.total > 0 && (answer.range.from > 1 || answer.range.to < answer.range.total) && (
          <span className="text-zinc-500">
            turns {answer.range.from}–{answer.range.to} of {answer.range.total}
          </span>
        )}
      </p>
      {groups.length > 0 && (
        <ul className="mt-1 space-y-0.5 text-amber-900" aria-label="Skipped turns" data-testid="handoff-skipped-list">
          {groups.map(({ sentence, turns: group }) => (
            <li key={sentence} className="break-words">
              {sentence}:{" "}
              {group.slice(0, LISTED_TURNS).map((turn, i) => (
                <span key={turn.position}>
                  {i > 0 && ", "}
                  <TurnNumber turn={turn} />
                </span>
              ))}
              {group.length > LISTED_TURNS && (
                <span className="text-zinc-500"> and {(group.length - LISTED_TURNS).toLocaleString("en-US")} more</span>
              )}
              .
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Turns listed by number at most (skipped, truncated): a 10,000-turn chain must not draw 10,000 links. */
export const LISTED_TURNS = 50;

/** A turn's position ("#4"), linked to the turn on its own thread's page. */
export function TurnNumber({ turn }: { turn: HandoffTurn }) {
  return (
    <Link
      href={turnHref(turn.origin)}
      prefetch={false}
      className="font-mono text-indigo-700 hover:underline"
      title={`Turn ${turn.origin.turnIndex + 1} of its thread`}
    >
      #{turn.position}
    </Link>
  );
}
