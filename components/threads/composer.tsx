"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useSyncExternalStore, useTransition, type FormEvent, type KeyboardEvent } from "react";
import { readServerSentEvents } from "@/lib/domain/server-sent-events";
import type { ChatBudget } from "@/lib/domain/chat-reply";
import { formatCount } from "@/lib/format";
import { apiErrorOf } from "@/lib/queries/api-client";

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

type Pending = { user: string | null; reply: string; model: string | null; budget: ChatBudget | null };
type Phase = "idle" | "sending" | "streaming";

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

/**
 * Resume the thread with a chat model: the message goes to POST /api/threads/:id/messages, the
 * reply streams in below the conversation, and once both turns are stored the page is refreshed
 * to show them as turns (with the reply's attribution and usage).
 */
export function Composer({ threadId, defaultModel, suggestions, configuredProviders, problem, blocked, sendBlocked, retryable }: Props) {
  const router = useRouter();
  // The last model used in this browser (the server cannot know it: it renders the default, and the
  // browser's choice follows on hydration), unless its provider is no longer configured.
  const last = useSyncExternalStore(subscribeToStorage, remembered, () => null);
  const lastUsable = last && configuredProviders.includes(last.split(":")[0]!) ? last : null;
  const [typedModel, setModel] = useState<string | null>(null);
  const model = typedModel ?? lastUsable ?? defaultModel ?? "";
  const [content, setContent] = useState("");
  const [pending, setPending] = useState<Pending | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [refreshing, startTransition] = useTransition();
  const [announcement, setAnnouncement] = useState("");
  const abort = useRef<AbortController | null>(null);
  const replyRef = useRef<HTMLDivElement>(null);
  const ids = { model: useId(), content: useId(), list: useId(), help: useId() };

  // Into view once when a message is sent, not on every arriving piece (the reader may scroll up).
  useEffect(() => {
    if (phase === "sending") replyRef.current?.scrollIntoView({ block: "nearest" });
  }, [phase]);

  if (problem) {
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

  const busy = phase !== "idle" || refreshing;

  /** Shows the stored turns: the refresh and the end of the pending view land together. */
  function settle(said: string) {
    setAnnouncement(said);
    startTransition(() => {
      router.refresh();
      setPending(null);
      setPhase("idle");
    });
  }

  /**
   * Stop: the server stops the provider and stores what arrived, then ends the stream, which
   * settles the page. Before the server has taken the message there is nothing to stop there:
   * the request itself is abandoned.
   */
  async function stop() {
    const stopped = await fetch(`/api/threads/${threadId}/messages`, { method: "DELETE" }).catch(() => null);
    if (!stopped?.ok) abort.current?.abort();
  }

  async function send(body: { content?: string; retry?: true }) {
    const chosen = model.trim();
    setError(null);
    setPending({ user: body.content ?? null, reply: "", model: null, budget: null });
    setPhase("sending");
    if (chosen) remember(chosen);
    const controller = new AbortController();
    abort.current = controller;
    let response: Response;
    try {
      response = await fetch(`/api/threads/${threadId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ ...body, ...(chosen ? { model: chosen } : {}) }),
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted) {
        // Abandoned: the server may have stored the message (marked unanswered): show what it has.
        if (body.content) setContent("");
        settle("Stopped.");
      } else {
        setError("Could not reach the Threadline server.");
        setPending(null);
        setPhase("idle");
      }
      return;
    }
    if (!response.ok) {
      const data: unknown = await response.json().catch(() => null);
      setError(apiErrorOf(response.status, data, `The server answered HTTP ${response.status}.`).message);
      if (response.status === 424) {
        // The message was stored, marked unanswered: show it (with Retry), clear the box.
        if (body.content) setContent("");
        settle("The message was kept, unanswered.");
      } else {
        setPending(null);
        setPhase("idle");
      }
      return;
    }
    if (body.content) setContent("");
    await readStream(response, controller);
  }

  async function readStream(response: Response, controller: AbortController) {
    let outcome = "The reply was stored.";
    try {
      for await (const { event, data } of readServerSentEvents(response.body!)) {
        const fields = data as Record<string, unknown>;
        if (event === "start") {
          setPhase("streaming");
          setPending(
            (p) =>
              p && {
                ...p,
                model: fields.model as string,
                budget: fields.budget as ChatBudget,
                user: p.user ?? (fields.userTurn as { content?: string })?.content ?? null,
              },
          );
        } else if (event === "delta") {
          setPending((p) => p && { ...p, reply: p.reply + (fields.text as string) });
        } else if (event === "error") {
          // The event carries the API's error shape; the response itself was a 200 stream.
          const message = apiErrorOf(response.status, fields, "The reply failed.").message;
          setError(message);
          outcome = message;
        }
      }
    } catch (error) {
      if (error instanceof SyntaxError) setError(`The server sent an unreadable event (${error.message}); what arrived was kept.`);
      else if (!controller.signal.aborted) setError("The connection to the Threadline server was lost; what arrived was kept.");
    }
    settle(outcome);
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy || !content.trim() || sendBlocked) return;
    void send({ content });
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    const inMessage = event.target instanceof HTMLTextAreaElement;
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      submit();
    } else if (event.key === "Enter" && !inMessage) {
      event.preventDefault(); // Enter in the model field picks the model; it does not send
    } else if (event.key === "Escape" && phase !== "idle") {
      void stop();
    }
  }

  const budget = pending?.budget;
  return (
    <section aria-label="Continue the conversation" className="mt-6 space-y-3">
      {pending && (
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
              Sent {budget.turnsIncluded} of {budget.turnsTotal} turns ({formatCount(budget.historyTokens)} tokens, {budget.tokenizer})
              budgeted for a {formatCount(budget.contextWindow)}-token window
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
      )}
      <p className="sr-only" role="status">
        {phase === "idle" ? announcement : "Waiting for the reply…"}
      </p>
      {error && (
        <p
          role="alert"
          className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm break-words text-red-800"
          data-testid="composer-error"
        >
          {error}
        </p>
      )}
      {blocked ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-4 text-sm text-zinc-600" data-testid="composer-blocked">
          {blocked}
        </p>
      ) : (
        <form onSubmit={submit} onKeyDown={onKeyDown} className="rounded-lg border border-zinc-200 bg-white p-3" aria-label="Message">
          <label htmlFor={ids.content} className="sr-only">
            Message
          </label>
          <textarea
            id={ids.content}
            value={content}
            onChange={(event) => setContent(event.target.value)}
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
              onChange={(event) => setModel(event.target.value)}
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
              {retryable && phase === "idle" && (
                <button
                  type="button"
                  onClick={() => void send({ retry: true })}
                  disabled={busy}
                  className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50 disabled:opacity-50"
                >
                  Retry last message
                </button>
              )}
              {phase !== "idle" ? (
                <button
                  type="button"
                  onClick={() => void stop()}
                  className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50"
                >
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
      )}
    </section>
  );
}
