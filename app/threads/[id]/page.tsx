import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TurnView } from "@/components/threads/turn-view";
import { findThread, findThreadWithTurns } from "@/lib/db/threads";
import { displayTitle } from "@/lib/domain/title";

type Params = Promise<{ id: string }>;

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
  return (
    <ol className="space-y-3" aria-label="Turns">
      {data.turns.map((turn) => (
        <li key={turn.id}>
          <TurnView turn={turn} number={turn.index + 1} />
        </li>
      ))}
    </ol>
  );
}
