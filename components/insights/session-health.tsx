import Link from "next/link";
import { sourceLabel } from "@/lib/domain/display/source";
import type { SessionEnding, SessionHealth, SessionSummary } from "@/lib/domain/insights/insights-report";
import { maskSecrets } from "@/lib/domain/secrets/detect";
import { formatDateTime, formatDuration, formatInteger, plural } from "@/lib/format";

const ENDINGS: Record<SessionEnding, string> = { error: "an error", interrupt: "an interrupt" };

/** How the range's sessions went: the counts, the longest sessions and those that ended in an error or an interrupt, each linked. */
export function SessionHealthView({ sessions }: Readonly<{ sessions: SessionHealth }>) {
  const counts = [
    { label: "Sessions", value: sessions.count, testId: "sessions-count" },
    { label: "With compaction", value: sessions.withCompaction, testId: "sessions-compaction" },
    { label: "With sub-agents", value: sessions.withSubagents, testId: "sessions-subagents" },
    { label: "Interrupted", value: sessions.interrupted, testId: "sessions-interrupted" },
    { label: "Ended in an error", value: sessions.errored, testId: "sessions-errored" },
  ];
  return (
    <section aria-labelledby="sessions-title" className="min-w-0 space-y-4">
      <h2 id="sessions-title" className="text-lg font-semibold tracking-tight">
        How sessions went
      </h2>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5" aria-label="Session counts">
        {counts.map((count) => (
          <div key={count.label} className="rounded-lg border border-zinc-200 bg-white px-3 py-2">
            <dt className="text-xs text-zinc-600">{count.label}</dt>
            <dd className="font-mono text-lg text-zinc-900" data-testid={count.testId}>
              {formatInteger(count.value)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-zinc-600">
        A session is a thread that is not another&apos;s sub-agent; its sub-agents count under it.{" "}
        {plural(sessions.compactions, "compaction")} in all.
      </p>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <SessionList title="Longest sessions" testId="longest" sessions={sessions.longest} none="No sessions in this range." />
        <SessionList
          title="Ended in an error or interrupt"
          testId="ended-badly"
          sessions={sessions.endedBadly}
          none="No session ended in an error or an interrupt."
        />
      </div>
    </section>
  );
}

function SessionList({
  title,
  testId,
  sessions,
  none,
}: Readonly<{ title: string; testId: string; sessions: SessionSummary[]; none: string }>) {
  return (
    <div className="min-w-0">
      <h3 id={`${testId}-title`} className="mb-2 font-semibold">
        {title}
      </h3>
      {sessions.length === 0 ? (
        <p className="text-sm text-zinc-600">{none}</p>
      ) : (
        <ol
          aria-labelledby={`${testId}-title`}
          className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white text-sm"
          data-testid={testId}
        >
          {sessions.map((session) => (
            <li key={session.threadId} className="px-3 py-2" data-testid={`${testId}-row`} data-key={session.threadId}>
              {session.private ? (
                // An admin's team figures: a session they may not read is counted, not named (as on /usage).
                <span className="text-zinc-600">A private thread</span>
              ) : (
                <Link href={`/threads/${encodeURIComponent(session.threadId)}`} className="break-words text-indigo-700 hover:underline">
                  {session.title ? maskSecrets(session.title) : <span className="font-mono break-all">{session.threadId}</span>}
                </Link>
              )}
              <p className="mt-0.5 text-xs break-words text-zinc-600">
                {sourceLabel(session.source)} · {formatInteger(session.turns)} turns ·{" "}
                {formatDuration(Date.parse(session.endedAt) - Date.parse(session.startedAt))} from {formatDateTime(session.startedAt)}
                {session.compactions > 0 && ` · ${plural(session.compactions, "compaction")}`}
                {session.subagents > 0 && ` · ${plural(session.subagents, "sub-agent")}`}
                {session.endedWith && <span className="font-medium text-red-700"> · ended in {ENDINGS[session.endedWith]}</span>}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
