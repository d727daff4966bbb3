import Link from "next/link";
import { CompactionLineage } from "@/components/compaction/compaction-lineage";
import type { CompactionLinks } from "@/lib/domain/compaction/records";
import type { ForkLinks } from "@/lib/domain/threads/links";
import type { ChildThreadLink } from "@/lib/domain/threads/links";
import { sourceLabel } from "@/lib/domain/display/source";
import { namesATool } from "@/lib/domain/threads/thread-tools";
import { displayTitle, shownTitle } from "@/lib/domain/threads/title";
import type { SessionFigures, Thread } from "@/lib/domain/types";
import { formatDateTime, plural } from "@/lib/format";
import { CopyButton } from "@/components/ui/copy-button";
import { CopyHandoffButton } from "./copy-handoff-button";
import { CopyPromptButton } from "./copy-prompt-button";
import { ExportMenu } from "./export-menu";
import { ForkLineage } from "./fork-lineage";
import { PurgeButton } from "./purge-button";
import { SessionFigure } from "@/components/ui/session-figure";
import { SendSecretsSwitch } from "@/components/secrets/send-secrets-switch";
import { ShareButton } from "@/components/sharing/share-dialog";
import { ReadersRow } from "./visibility-toggle";

type Props = {
  thread: Thread;
  parent: { id: string; title: string | null; missing: boolean } | null;
  childThreads: ChildThreadLink[];
  compactions: CompactionLinks;
  forks: ForkLinks;
  /** The model "Copy as prompt" assembles the history for. */
  promptModel: string;
  /** Secrets found in the thread's turns: the export then defaults to the redacted copy. */
  secretCount?: number;
  /** The thread's "send secrets to models" setting, and whether this person may change it (admins). */
  /** `canChange`: an admin (or sign-in off): may also reveal secrets and export losslessly. */
  secrets?: { sendToModels: boolean; canChange: boolean };
  /** Its one figure: its session's tokens and cost, with the split (lib/domain/usage/thread-figures.ts). */
  figures?: SessionFigures;
  /** With sign-in on: whose it is (their name, "you" for the reader) and whether the reader may share it or make it private. */
  access?: { owner: string; canChange: boolean };
};

/** How this thread relates to its parent, as imports record it in metadata.relation. */
function relationKind(thread: Thread): string | null {
  const relation = thread.metadata?.relation;
  return relation && typeof relation === "object" && !Array.isArray(relation) && typeof relation.kind === "string" ? relation.kind : null;
}

const PARENT_LABEL: Record<string, string> = { subagent: "Spawned by", fork: "Forked from" };

/** Children grouped by how they came from this thread: sub-agents, forks, then continuations. */
const CHILD_GROUPS = [
  { label: "Sub-agents", testId: "subagent-children", match: (c: ChildThreadLink) => c.relation?.kind === "subagent" },
  { label: "Forks", testId: "fork-children", match: (c: ChildThreadLink) => c.relation?.kind === "fork" },
  {
    label: "Continued by",
    testId: "continuation-children",
    match: (c: ChildThreadLink) => c.relation?.kind !== "subagent" && c.relation?.kind !== "fork",
  },
];

/** What undoing this revision would also delete, if anything: turns added since, continuations' parent. */
function undoWarning(thread: Thread, compactions: CompactionLinks, children: ChildThreadLink[]): string | null {
  const made = compactions.compactedFrom ? Date.parse(compactions.compactedFrom.createdAt) : null;
  if (made === null) return null;
  const lost: string[] = [];
  if (Date.parse(thread.lastUpdatedAt) > made + 1_000)
    lost.push("turns were added to this revision after it was made, and they would be deleted with it");
  if (children.length > 0) lost.push(`${plural(children.length, "thread")} continue from it and would lose their parent`);
  return lost.length > 0 ? `Since the compaction, ${lost.join("; ")}.` : null;
}

export function ThreadHeader({
  thread,
  parent,
  childThreads,
  compactions,
  forks,
  promptModel,
  secretCount = 0,
  secrets,
  figures,
  access,
}: Props) {
  const kind = relationKind(thread);
  const hasSubagents = childThreads.some((c) => c.relation?.kind === "subagent");
  return (
    <header className="mb-4 rounded-lg border border-zinc-200 bg-white p-4">
      <div className="flex flex-wrap items-start gap-3">
        <h1 className="min-w-0 flex-1 text-xl font-semibold tracking-tight break-words">{displayTitle(thread.title)}</h1>
        <ExportMenu
          threadId={thread.id}
          expired={thread.expired}
          secretCount={secretCount}
          lossless={secrets?.canChange ?? true}
          hasSubagents={hasSubagents}
          inChain={parent !== null}
        />
        {/* A link is its owner's (or an admin's) to make. */}
        {!thread.expired && (access?.canChange ?? true) && <ShareButton threadId={thread.id} hasSubagents={hasSubagents} />}
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {/* One line, cut with an ellipsis where it must be (the copy button has it whole); on a
            phone the buttons wrap below it rather than squeezing it into a column. */}
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 sm:col-span-2 lg:col-span-3">
          <dt className="shrink-0 text-zinc-500">Id</dt>
          <dd className="max-w-[calc(100%-2rem)] min-w-0 truncate font-mono text-xs" data-testid="thread-id" title={thread.id}>
            {thread.id}
          </dd>
          {/* In a dd of their own: a dl's groups hold only dt and dd (axe-core's definition-list). */}
          <dd className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <CopyButton text={thread.id} label="Copy continuation id" />
            {!thread.expired && <CopyPromptButton threadId={thread.id} model={promptModel} />}
            {!thread.expired && <CopyHandoffButton threadId={thread.id} hasParent={parent !== null} />}
          </dd>
        </div>
        <div className="flex min-w-0 gap-2">
          <dt className="text-zinc-500">{thread.source.startsWith("import:") ? "Agent" : "Source"}</dt>
          <dd className="min-w-0 break-all">{sourceLabel(thread.source)}</dd>
        </div>
        {namesATool(thread.source) && (
          <div className="flex min-w-0 gap-2">
            <dt className="text-zinc-500">Tool</dt>
            <dd className="min-w-0 font-mono break-all">{thread.toolName}</dd>
          </div>
        )}
        {access && <ReadersRow threadId={thread.id} visibility={thread.visibility} owner={access.owner} canChange={access.canChange} />}
        <TimeRow term="Created" at={thread.createdAt} />
        <TimeRow term="Updated" at={thread.lastUpdatedAt} />
        {/* Only a thread that can expire says when (an imported session never does). */}
        {thread.expiresAt !== null && (
          <div className="flex gap-2">
            <dt className="text-zinc-500">Expiry</dt>
            <dd data-testid="expiry">
              {thread.expired ? (
                <span className="font-medium text-amber-800">expired {formatDateTime(thread.expiresAt)}</span>
              ) : (
                `expires ${formatDateTime(thread.expiresAt)}`
              )}
            </dd>
          </div>
        )}
        <div className="flex gap-2">
          <dt className="text-zinc-500">Size</dt>
          <dd className="min-w-0 break-words">{plural(thread.turnCount, "turn")}</dd>
        </div>
        <div className="flex min-w-0 gap-2 sm:col-span-2">
          <dt className="shrink-0 text-zinc-500">Used</dt>
          <dd className="min-w-0 break-words" data-testid="header-figure">
            <SessionFigure figures={figures} none="no responses of its own" />
          </dd>
        </div>
        {thread.modelsUsed.length > 0 && (
          <div className="flex min-w-0 gap-2 sm:col-span-2">
            <dt className="text-zinc-500">Models</dt>
            <dd className="min-w-0 font-mono text-xs leading-5 break-words">{thread.modelsUsed.join(", ")}</dd>
          </div>
        )}
        {parent && (
          <div className="flex min-w-0 gap-2 sm:col-span-2 lg:col-span-3">
            <dt className="shrink-0 text-zinc-500">{(kind && PARENT_LABEL[kind]) ?? "Continues"}</dt>
            <dd className="min-w-0 truncate">
              {parent.missing ? (
                <span className="text-zinc-500">
                  <span className="font-mono text-xs">{parent.id}</span> (not in this database: purged or never imported)
                </span>
              ) : (
                <Link href={`/threads/${parent.id}`} className="text-indigo-700 underline" title={displayTitle(parent.title)}>
                  {shownTitle(parent.title).text}
                </Link>
              )}
            </dd>
          </div>
        )}
        <ForkLineage links={forks} />
        <CompactionLineage links={compactions} undoWarning={undoWarning(thread, compactions, childThreads)} />
        {CHILD_GROUPS.map(({ label, testId, match }) => {
          const group = childThreads.filter(match);
          if (group.length === 0) return null;
          return (
            <div key={label} className="flex min-w-0 gap-2 sm:col-span-2 lg:col-span-3" data-testid={testId}>
              <dt className="shrink-0 text-zinc-500">{label}</dt>
              <dd className="flex min-w-0 flex-wrap gap-x-3">
                {group.map((child) => (
                  <Link
                    key={child.id}
                    href={`/threads/${child.id}`}
                    className="min-w-0 break-words text-indigo-700 underline"
                    title={displayTitle(child.title)}
                  >
                    {shownTitle(child.title).text}
                  </Link>
                ))}
              </dd>
            </div>
          );
        })}
      </dl>
      {secrets && (secretCount > 0 || secrets.sendToModels) && (
        <SendSecretsSwitch threadId={thread.id} on={secrets.sendToModels} secretCount={secretCount} canChange={secrets.canChange} />
      )}
      {thread.expired && (
        <div
          role="status"
          className="mt-4 flex flex-wrap items-center gap-3 rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p className="flex-1">
            This thread expired {formatDateTime(thread.expiresAt ?? thread.lastUpdatedAt)}. Agents using the API get 404 for it; it stays
            here until you purge it.
          </p>
          <PurgeButton threadId={thread.id} childCount={childThreads.length} />
        </div>
      )}
    </header>
  );
}

/** A term of the header's list with its date and time. */
function TimeRow({ term, at }: Readonly<{ term: string; at: string }>) {
  return (
    <div className="flex gap-2">
      <dt className="text-zinc-500">{term}</dt>
      <dd>
        <time dateTime={at}>{formatDateTime(at)}</time>
      </dd>
    </div>
  );
}
