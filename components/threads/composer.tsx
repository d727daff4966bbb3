"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import { formatCount } from "@/lib/format";
import { useChatReply, type PendingReply, type ReplyPhase } from "./use-chat-reply";

type Props = {
  threadId: string;
  /** The default chat model from Settings or THREADLINE_CHAT_MODEL, when valid. */
  defaultModel: string | null;
  /** "<provider>:<model>" suggestions for the configured providers. */
  suggestions: string[];
  /** Providers that can be called; a remembered model of another is not offered. */
  configuredProviders: string[];
  /** Why no model can be used at all (no provider configured), or null. */
  problem: string | null;
  /** Why this thread cannot take a message (expired, full), or null. */
  blocked: string | null;
  /** Why a new message cannot be sent though a retry can (one turn left), or null. */
  sendBlocked: string | null;
  /** The last turn is a user message no model answered: offer to retry it. */
  retryable: boolean;
};

const STORAGE_KEY = "threadline.chatModel";

/** localStorage, which a browser may refuse (private modes, policies): then nothing is remembered. */
function remembered(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Another tab that remembers a model updates this one too. */
function subscribeToStorage(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

function remember(model: string) {
  try {
    window.localStorage.setItem(STORAGE_KEY, model);
  } catch {
    // not remembered: the default applies next time
  }
}

/** The model to send with: typed here, else the last one used in this browser (if its provider is configured), else the default. */
function useChatModel(defaultModel: string | null, configuredProviders: string[]) {
  // The last model used in this browser (the server cannot know it: it renders the default, and the
  // browser's choice follows on hydration), unless its provider is no longer configured.
  const last = useSyncExternalStore(subscribeToStorage, remembered, () => null);
  const lastUsable = last && configuredProviders.includes(last.split(":")[0]!) ? last : null;
  const [typedModel, setModel] = useState<string | null>(null);
  return { model: typedModel ?? lastUsable ?? defaultModel ?? "", setModel };
}

/**
 * Resume the thread with a chat model: the message goes to POST /api/threads/:id/messages, the
 * reply streams in below the conversation, and once both turns are stored the page is refreshed
 * to show them as turns (with the reply's attribution and usage).
 */
export function Composer({ threadId, defaultModel, suggestions, configuredProviders, problem, blocked, sendBlocked, retryable }: Props) {
  const { model, setModel } = useChatModel(defaultModel, configuredProviders);
  const [content, setContent] = useState("");
  const reply = useChatReply(threadId, () => setContent(""));
  const { pending, phase, busy } = reply;
  const replyRef = useRef<HTMLDivElement>(null);

  // Into view once when a message is sent, not on every arriving piece (the reader may scroll up).
  useEffect(() => {
    if (phase === "sending") replyRef.current?.scrollIntoView({ block: "nearest" });
  }, [phase]);

  if (problem) return <ComposerUnavailable problem={problem} />;

  function send(body: { content?: string; retry?: true }) {
    const chosen = model.trim();
    if (chosen) remember(chosen);
    void reply.send(body, chosen);
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy || !content.trim() || sendBlocked) return;
    send({ content });
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    const inMessage = event.target instanceof HTMLTextAreaElement;
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      submit();
    } else if (event.key === "Enter" && !inMessage) {
      event.preventDefault(); // Enter in the model field picks the model; it does not send
    } else if (event.key === "Escape" && phase !== "idle") {
      void reply.stop();
    }
  }

  return (
    <section aria-label="Continue the conversation" className="mt-6 space-y-3">
      {pending && <PendingExchange pending={pending} phase={phase} threadId={threadId} replyRef={replyRef} />}
      <p className="sr-only" role="status">
        {phase === "idle" ? reply.announcement : "Waiting for the reply…"}
      </p>
      {reply.error && (
        <p
          role="alert"
          className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm break-words text-red-800"
          data-testid="composer-error"
        >
          {reply.error}
        </p>
      )}
      {blocked ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-4 text-sm text-zinc-600" data-testid="composer-blocked">
          {blocked}
        </p>
      ) : (
        <MessageForm
          content={content}
          onContent={setContent}
          model={model}
          onModel={setModel}
          defaultModel={defaultModel}
          suggestions={suggestions}
          sendBlocked={sendBlocked}
          retryable={retryable}
          phase={phase}
          busy={busy}
          onSubmit={submit}
          onKeyDown={onKeyDown}
          onRetry={() => send({ retry: true })}
          onStop={() => void reply.stop()}
        />
      )}
    </section>
  );
}

/** Where the composer would be when no chat model can be used: why, and the way to Settings. */
function ComposerUnavailable({ problem }: { problem: string }) {
  return (
    <section
      aria-label="Continue the conversation"
      className="mt-6 rounded-lg border border-dashed border-zinc-300 bg-white p-4 text-sm text-zinc-600"
      data-testid="composer-unavailable"
    >
      <p>
        This thread cannot be continued from here yet. {problem}{" "}
        <Link href="/settings" className="font-medium text-sky-700 underline">
          Open Settings
        </Link>
      </p>
      <p className="mt-1 text-xs text-zinc-500">Everything else (browsing, budgets, compaction, export) works without one.</p>
    </section>
  );
}

/** The message sent and the reply as it streams in, with the budget its history was sent under. */
function PendingExchange({
  pending,
  phase,
  threadId,
  replyRef,
}: {
  pending: PendingReply;
  phase: ReplyPhase;
  threadId: string;
  replyRef: RefObject<HTMLDivElement | null>;
}) {
  const budget = pending.budget;
  return (
    <div ref={replyRef} className="space-y-3" data-testid="composer-pending">
      {pending.user !== null && (
        <article className="rounded-lg border border-sky-200 bg-white px-4 py-3 text-sm whitespace-pre-wrap break-words">
          <p className="mb-1 text-xs font-medium text-sky-800">You</p>
          {pending.user}
        </article>
      )}
      <article className="rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm" aria-busy={phase !== "idle"}>
        <p className="mb-1 text-xs font-medium text-zinc-600">{pending.model ?? "Sending…"}</p>
        <div className="whitespace-pre-wrap break-words" data-testid="composer-reply">
          {pending.reply || (phase !== "idle" && <span className="text-zinc-400">Waiting for the model…</span>)}
        </div>
      </article>
      {budget && (
        <p className="text-xs text-zinc-500" data-testid="composer-budget">
          Sent {budget.turnsIncluded} of {budget.turnsTotal} turns ({formatCount(budget.historyTokens)} tokens, {budget.tokenizer}) budgeted
          for a {formatCount(budget.contextWindow)}-token window
          {budget.assumed
            ? " (assumed: the catalog does not know this model; add it under Custom models in Settings)"
            : ` (${budget.catalogModel})`}
          .{" "}
          <Link
            className="text-sky-700 underline"
            href={`/threads/${threadId}/budget?${budget.catalogModel && !budget.assumed ? `model=${encodeURIComponent(budget.catalogModel)}` : `contextWindow=${budget.contextWindow}`}`}
          >
            See the history
          </Link>
        </p>
      )}
    </div>
  );
}

type MessageFormProps = Pick<Props, "defaultModel" | "suggestions" | "sendBlocked" | "retryable"> & {
  content: string;
  onContent: (content: string) => void;
  model: string;
  onModel: (model: string) => void;
  phase: ReplyPhase;
  busy: boolean;
  onSubmit: (event?: FormEvent) => void;
  onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => void;
  onRetry: () => void;
  onStop: () => void;
};

/** The message box, the model field, and Send, Stop or Retry. */
function MessageForm(props: MessageFormProps) {
  const { content, model, defaultModel, suggestions, sendBlocked, phase, busy } = props;
  const ids = { model: useId(), content: useId(), list: useId(), help: useId() };
  return (
    <form
      onSubmit={props.onSubmit}
      onKeyDown={props.onKeyDown}
      className="rounded-lg border border-zinc-200 bg-white p-3"
      aria-label="Message"
    >
      <label htmlFor={ids.content} className="sr-only">
        Message
      </label>
      <textarea
        id={ids.content}
        value={content}
        onChange={(event) => props.onContent(event.target.value)}
        rows={3}
        placeholder="Continue the conversation…"
        aria-describedby={ids.help}
        className="w-full resize-y rounded border border-zinc-300 px-3 py-2 text-sm focus:border-sky-500"
      />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <label htmlFor={ids.model} className="text-xs text-zinc-600">
          Model
        </label>
        <input
          id={ids.model}
          value={model}
          onChange={(event) => props.onModel(event.target.value)}
          list={ids.list}
          placeholder={defaultModel ?? "provider:model"}
          spellCheck={false}
          className="w-64 min-w-0 rounded border border-zinc-300 px-2 py-1 font-mono text-xs focus:border-sky-500"
        />
        <datalist id={ids.list}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <span id={ids.help} className="text-xs text-zinc-500">
          {sendBlocked ?? `Ctrl+Enter to send${phase !== "idle" ? ", Esc to stop" : ""}`}
        </span>
        <span className="ml-auto flex gap-2">
          {props.retryable && phase === "idle" && (
            <button
              type="button"
              onClick={props.onRetry}
              disabled={busy}
              className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50 disabled:opacity-50"
            >
              Retry last message
            </button>
          )}
          {phase !== "idle" ? (
            <button type="button" onClick={props.onStop} className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50">
              Stop
            </button>
          ) : (
            <button
              type="submit"
              disabled={busy || !content.trim() || sendBlocked !== null}
              className="rounded bg-sky-700 px-3 py-1 text-sm font-medium text-white hover:bg-sky-800 disabled:opacity-50"
            >
              Send
            </button>
          )}
        </span>
      </div>
    </form>
  );
}
