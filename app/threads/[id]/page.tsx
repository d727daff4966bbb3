import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { buildToolIndex } from "@/components/threads/tool-index";
import { TurnView } from "@/components/threads/turn-view";
import { ThreadUsageTotals } from "@/components/threads/usage";
import { findThread, findThreadWithTurns, getThreadLinks } from "@/lib/db/threads";
import { displayTitle } from "@/lib/domain/title";

type Params = Promise<{ id: string }>;

/** Enough children to tie every sub-agent of a long agent session to its tool call. */
const CHILD_LIMIT = 1_000;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const thread = await findThread((await params).id);
  return { title: thread ? displayTitle(thread.title) : "Not found" };
}

export default async function ThreadPage({ params }: { params: Params }) {
  const data = await findThreadWithTurns((await params).id);
  if (!data) notFound();
  if (data.turns.length === 0) {
    return (
      <p className="rounded border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600">
        No turns yet. Agents add them with <code className="rounded bg-zinc-100 px-1">POST /api/threads/{data.thread.id}/turns</code>.
      </p>
    );
  }
  const links = await getThreadLinks(data.thread, { childLimit: CHILD_LIMIT });
  const tools = buildToolIndex(
    data.turns.map((turn) => ({ turn, number: turn.index + 1 })),
    links.children,
  );
  const responses = data.turns.filter((turn) => turn.usage !== null).length;
  return (
    <>
      {/* The header (layout) reads no turns; the totals need them, so they head the conversation. */}
      {data.thread.usage && responses > 0 && <ThreadUsageTotals usage={data.thread.usage} responses={responses} />}
      <ol className="space-y-3" aria-label="Turns">
        {data.turns.map((turn) => (
          <li key={turn.id}>
            <TurnView turn={turn} number={turn.index + 1} tools={tools} menu />
          </li>
        ))}
      </ol>
    </>
  );
}
