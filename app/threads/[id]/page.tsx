import type { Metadata } from "next";
import { headers } from "next/headers";
import { readerFrom } from "@/lib/auth/reader";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { notFound } from "next/navigation";
import { buildToolIndex } from "@/components/threads/tool-index";
import { InjectedContext } from "@/components/threads/transcript-blocks";
import { TurnView } from "@/components/threads/turn-view";
import { ThreadUsageTotals } from "@/components/threads/usage";
import { SessionTotalsPanel } from "@/components/threads/session-totals";
import { priceSessionTotals, sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { pricerWith } from "@/lib/models/pricing";
import { Composer } from "@/components/threads/composer";
import { headCount } from "@/components/threads/reader-nav";
import { LiveThread } from "@/components/threads/live-thread";
import { TurnReader } from "@/components/threads/turn-reader";
import { compactionRunsByMarker, withSessionUsage } from "@/lib/db/usage/session-usage";
import { getThreadLinks } from "@/lib/db/threads/threads";
import { countResponses, getThreadHead, listTurns } from "@/lib/db/threads/turn-pages";
import { getTurn } from "@/lib/db/threads/turns";
import { isUnanswered } from "@/lib/domain/threads/chat";
import { describeTimeout } from "@/lib/domain/threads/expiry";
import { displayTitle } from "@/lib/domain/threads/title";
import type { Thread, Turn } from "@/lib/domain/types";
import { serverSettings } from "@/lib/env";
import { describeChatAvailability } from "@/lib/llm/config";
import { listModels } from "@/lib/models/catalog";
import { TURN_BLOCK } from "@/lib/queries/threads";
import { readSearchText } from "@/lib/queries/url-state";
import { findThreadOnce, listCustomModelsOnce } from "./thread-data";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Enough children to tie every sub-agent of a long agent session to its tool call. */
const CHILD_LIMIT = 1_000;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const thread = await findThreadOnce((await params).id);
  return { title: thread ? displayTitle(thread.title) : "Not found" };
}

/**
 * How many turns the server reads to render (fewer when they are heavy: headCount): the first
 * screen, useful before scripts run, whatever the thread's length. The rest are read by the
 * browser in blocks as the reader moves (TurnReader).
 */
const HEAD_TURNS = TURN_BLOCK;
/** Turns read past the head only to pair its last tool calls with their results. */
const LOOKAHEAD = 10;

export default async function ThreadPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const thread = await findThreadOnce((await params).id);
  // A search hit's link (`?q=`): the words find in thread starts with; anything else is ignored.
  const initialQuery = readSearchText(await searchParams);
  if (!thread) notFound();
  const visibility = { includeExpired: true };
  // A long thread's other reads go alongside its head's (whose totals read every turn's usage).
  const long = thread.turnCount > HEAD_TURNS;
  const [data, links, lookahead, counted, compactionRuns] = await Promise.all([
    getThreadHead(thread.id, HEAD_TURNS, visibility).then(withSessionUsage).then(maskDeep),
    getThreadLinks(thread, await readerFrom(await headers()), { childLimit: CHILD_LIMIT }).then(maskDeep),
    long ? listTurns(thread.id, HEAD_TURNS, LOOKAHEAD, visibility).then((page) => maskDeep(page.items)) : [],
    long ? countResponses(thread.id) : null,
    long ? compactionRunsByMarker(thread.id) : {},
  ]);
  const turnCount = data.thread.turnCount;
  if (turnCount === 0) {
    return (
      <>
        <p className="rounded border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600">
          No turns yet. Write below, or agents add them with{" "}
          <code className="rounded bg-zinc-100 px-1">POST /api/threads/{data.thread.id}/turns</code>.
        </p>
        <ThreadComposer thread={data.thread} lastTurn={null} />
        <LiveThread threadId={thread.id} turnCount={0} lastUpdatedAt={data.thread.lastUpdatedAt} />
      </>
    );
  }
  const lastTurn = data.turnsTruncated ? maskDeep(await getTurn(thread.id, turnCount - 1, visibility)) : (data.turns.at(-1) ?? null);
  const responses = counted ?? data.turns.filter((turn) => turn.usage !== null).length;
  // A long thread's first turns, as many as the page's HTML affords (heavy tool outputs weigh
  // more); a thread read whole is rendered whole, as before.
  const head = data.turnsTruncated ? data.turns.slice(0, headCount(data.turns)) : data.turns;
  const read = [...data.turns, ...lookahead];
  // Totals the source reports only per session (Copilot CLI), shown apart from the responses' usage.
  const sessionTotals = sessionTotalsOf(data.thread.metadata);
  const pricedTotals = sessionTotals ? priceSessionTotals(sessionTotals, pricerWith(await listCustomModelsOnce())) : [];
  const tools = buildToolIndex(
    read.map((turn) => ({ turn, number: turn.index + 1 })),
    links.children,
    { partial: read.length < turnCount },
  );
  return (
    <>
      {/* The header (layout) reads no turns; the totals need them, so they head the conversation. */}
      {data.thread.usage && responses > 0 && (
        <ThreadUsageTotals usage={data.thread.usage} responses={responses} session={data.thread.usageWithSubagents ?? null} />
      )}
      {sessionTotals && <SessionTotalsPanel totals={sessionTotals} priced={pricedTotals} />}
      <InjectedContext context={data.thread.initialContext} />
      <TurnReader
        threadId={thread.id}
        turnCount={turnCount}
        head={head.map((turn) => (
          <TurnView key={turn.id} turn={turn} number={turn.index + 1} tools={tools} menu />
        ))}
        headIds={head.map((turn) => turn.id)}
        childLinks={links.children}
        compactionRuns={compactionRuns}
        initialQuery={initialQuery}
      />
      <ThreadComposer thread={data.thread} lastTurn={lastTurn} />
      <LiveThread threadId={thread.id} turnCount={turnCount} lastUpdatedAt={data.thread.lastUpdatedAt} />
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
