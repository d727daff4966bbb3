import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { buildToolIndex } from "@/components/threads/tool-index";
import { InjectedContext } from "@/components/threads/transcript-blocks";
import { TurnView } from "@/components/threads/turn-view";
import { ThreadUsageTotals } from "@/components/threads/usage";
import { Composer } from "@/components/threads/composer";
import { withSessionUsage } from "@/lib/db/session-usage";
import { findThreadWithTurns, getThreadLinks } from "@/lib/db/threads";
import { isUnanswered } from "@/lib/domain/chat";
import { describeTimeout } from "@/lib/domain/expiry";
import { displayTitle } from "@/lib/domain/title";
import type { Thread, Turn } from "@/lib/domain/types";
import { serverSettings } from "@/lib/env";
import { describeChatAvailability } from "@/lib/llm/config";
import { listModels } from "@/lib/models/catalog";
import { findThreadOnce, listCustomModelsOnce } from "./thread-data";

type Params = Promise<{ id: string }>;

/** Enough children to tie every sub-agent of a long agent session to its tool call. */
const CHILD_LIMIT = 1_000;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const thread = await findThreadOnce((await params).id);
  return { title: thread ? displayTitle(thread.title) : "Not found" };
}

export default async function ThreadPage({ params }: { params: Params }) {
  const found = await findThreadWithTurns((await params).id);
  if (!found) notFound();
  const data = await withSessionUsage(found);
  const composer = <ThreadComposer thread={data.thread} lastTurn={data.turns.at(-1) ?? null} />;
  if (data.turns.length === 0) {
    return (
      <>
        <p className="rounded border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600">
          No turns yet. Write below, or agents add them with <code className="rounded bg-zinc-100 px-1">POST /api/threads/{data.thread.id}/turns</code>.
        </p>
        {composer}
      </>
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
      {data.thread.usage && responses > 0 && <ThreadUsageTotals usage={data.thread.usage} responses={responses} session={data.thread.usageWithSubagents ?? null} />}
      <InjectedContext context={data.thread.initialContext} />
      <ol className="space-y-3" aria-label="Turns">
        {data.turns.map((turn) => (
          <li key={turn.id}>
            <TurnView turn={turn} number={turn.index + 1} tools={tools} menu />
          </li>
        ))}
      </ol>
      {composer}
    </>
  );
}

/** How many "<provider>:<model>" suggestions the composer lists. */
const MAX_SUGGESTIONS = 80;

async function ThreadComposer({ thread, lastTurn }: { thread: Thread; lastTurn: Turn | null }) {
  const [chat, custom] = await Promise.all([describeChatAvailability(), listCustomModelsOnce()]);
  const catalog = listModels(custom);
  const suggestions = new Set<string>(chat.defaultModel ? [chat.defaultModel] : []);
  for (const provider of chat.configuredProviders) {
    for (const model of catalog) if (model.provider === provider) suggestions.add(`${provider}:${model.id}`);
  }
  const { maxTurns, timeoutHours } = serverSettings();
  const retryable = lastTurn !== null && isUnanswered(lastTurn) && !thread.expired;
  const roomForMessage = thread.turnCount + 2 <= maxTurns.value;
  const full = `This thread has ${thread.turnCount} of its ${maxTurns.value} turns (MAX_CONVERSATION_TURNS)`;
  let blocked: string | null = null;
  let sendBlocked: string | null = null;
  if (thread.expired) {
    blocked = `This thread expired after ${describeTimeout(timeoutHours.value)} without activity: fork it (from any turn's menu) to continue.`;
  } else if (!roomForMessage && retryable && thread.turnCount + 1 <= maxTurns.value) {
    sendBlocked = `${full}: room for the retried message's reply only.`;
  } else if (!roomForMessage) {
    blocked = `${full}: a message and its reply need 2 more. Compact or fork it to continue.`;
  }
  return (
    <Composer
      threadId={thread.id}
      defaultModel={chat.defaultModel}
      suggestions={[...suggestions].slice(0, MAX_SUGGESTIONS)}
      configuredProviders={chat.configuredProviders}
      problem={chat.problem}
      blocked={blocked}
      sendBlocked={sendBlocked}
      retryable={retryable}
    />
  );
}
