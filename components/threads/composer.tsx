"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useTransition, type FormEvent, type KeyboardEvent } from "react";
import type { ChatBudget } from "@/lib/chat/types";
import { formatCount } from "@/lib/format";

type Props = {
  threadId: string;
  /** The default chat model from Settings or THREADLINE_CHAT_MODEL, when valid. */
  defaultModel: string | null;
  /** "<provider>:<model>" suggestions for the configured providers. */
  suggestions: string[];
  /** Why no model can be used at all (no provider configured), or null. */
  problem: string | null;
  /** Why this thread cannot take a message (expired, full), or null. */
  blocked: string | null;
  /** The last turn is a user message no model answered: offer to retry it. */
  retryable: boolean;
};

type Pending = { user: string | null; reply: string; model: string | null; budget: ChatBudget | null };
type Phase = "idle" | "sending" | "streaming";

const STORAGE_KEY = "threadline.chatModel";

/** One server-sent event from POST /api/threads/:id/messages. */
type ChatStreamEvent = { event: string; data: Record<string, unknown> };

function parseEvent(block: string): ChatStreamEvent | null {
  const event = /^event: (.*)$/m.exec(block)?.[1];
  const data = /^data: (.*)$/m.exec(block)?.[1];
  if (!event || data === undefined) return null;
  return { event, data: JSON.parse(data) as Record<string, unknown> };
}

function errorMessage(data: unknown, fallback: string): string {
  const error = (data as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === "string" ? error.message : fallback;
}

/**
 * Resume the thread with a chat model: the message goes to POST /api/threads/:id/messages, the
 * reply streams in below the conversation, and once both turns are stored the page is refreshed
 * to show them as turns (with the reply's attribution and usage).
 */
export function Composer({ threadId, defaultModel, suggestions, problem, blocked, retryable }: Props) {
  const router = useRouter();
  const [model, setModel] = useState(defaultModel ?? "");
  const [content, setContent] = useState("");
  const [pending, setPending] = useState<Pending | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [refreshing, startTransition] = useTransition();
  const abort = useRef<AbortController | null>(null);
  const replyRef = useRef<HTMLDivElement>(null);
  const ids = { model: useId(), content: useId(), list: useId(), help: useId() };

  // The last model used in this browser, once mounted (the server cannot know it).
  useEffect(() => {
    const remembered = window.localStorage.getItem(STORAGE_KEY);
    if (remembered) setModel(remembered);
  }, []);

  useEffect(() => {
    if (pending) replyRef.current?.scrollIntoView({ block: "nearest" });
  }, [pending]);

  if (problem) {
    return (
      <section aria-label="Continue the conversation" className="mt-6 rounded-lg border border-dashed border-zinc-300 bg-white p-4 text-sm text-zinc-600" data-testid="composer-unavailable">
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
  function settle() {
    startTransition(() => {
      router.refresh();
      setPending(null);
      setPhase("idle");
    });
  }

  async function send(body: { content?: string; retry?: true }) {
    const chosen = model.trim();
    setError(null);
    setPending({ user: body.content ?? null, reply: "", model: null, budget: null });
    setPhase("sending");
    if (chosen) window.localStorage.setItem(STORAGE_KEY, chosen);
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
      setError(controller.signal.aborted ? null : "Could not reach the Threadline server.");
      setPending(null);
      setPhase("idle");
      return;
    }
    if (!response.ok) {
      const data: unknown = await response.json().catch(() => null);
      setError(errorMessage(data, `The server answered HTTP ${response.status}.`));
      if (response.status === 424) {
        // The message was stored, marked unanswered: show it (with Retry), clear the box.
        if (body.content) setContent("");
        settle();
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
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const parsed = parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!parsed) continue;
          if (parsed.event === "start") {
            setPhase("streaming");
            setPending((p) => p && { ...p, model: parsed.data.model as string, budget: parsed.data.budget as ChatBudget, user: p.user ?? ((parsed.data.userTurn as { content?: string })?.content ?? null) });
          } else if (parsed.event === "delta") {
            setPending((p) => p && { ...p, reply: p.reply + (parsed.data.text as string) });
          } else if (parsed.event === "error") {
            setError(errorMessage(parsed.data, "The reply failed."));
          }
        }
      }
    } catch {
      if (!controller.signal.aborted) setError("The connection to the Threadline server was lost; what arrived was kept.");
    }
    if (controller.signal.aborted) {
      // The server stores what arrived when it notices the reader is gone: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    settle();
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy || !content.trim()) return;
    void send({ content });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) submit();
    if (event.key === "Escape" && phase !== "idle") abort.current?.abort();
  }

  const budget = pending?.budget;
  return (
    <section aria-label="Continue the conversation" className="mt-6 space-y-3">
      {pending && (
        <div ref={replyRef} className="space-y-3" data-testid="composer-pending" aria-live="polite">
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
              Sent {budget.turnsIncluded} of {budget.turnsTotal} turns ({formatCount(budget.historyTokens)} tokens, {budget.tokenizer}) budgeted for a {formatCount(budget.contextWindow)}-token window
              {budget.assumed ? " (assumed: the catalog does not know this model; add it under Custom models in Settings)" : ` (${budget.catalogModel})`}.{" "}
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
      {error && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm break-words text-red-800" data-testid="composer-error">
          {error}
        </p>
      )}
      {blocked ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-4 text-sm text-zinc-600" data-testid="composer-blocked">
          {blocked}
        </p>
      ) : (
        <form onSubmit={submit} className="rounded-lg border border-zinc-200 bg-white p-3" aria-label="Message">
          <label htmlFor={ids.content} className="sr-only">
            Message
          </label>
          <textarea
            id={ids.content}
            value={content}
            onChange={(event) => setContent(event.target.value)}
            onKeyDown={onKeyDown}
            rows={3}
            placeholder="Continue the conversation…"
            aria-describedby={ids.help}
            className="w-full resize-y rounded border border-zinc-300 px-3 py-2 text-sm focus:border-sky-500 focus:outline-none"
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
              className="w-64 min-w-0 rounded border border-zinc-300 px-2 py-1 font-mono text-xs focus:border-sky-500 focus:outline-none"
            />
            <datalist id={ids.list}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
            <span id={ids.help} className="text-xs text-zinc-500">
              Ctrl+Enter to send{phase !== "idle" ? ", Esc to stop" : ""}
            </span>
            <span className="ml-auto flex gap-2">
              {retryable && phase === "idle" && (
                <button type="button" onClick={() => void send({ retry: true })} disabled={busy} className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50 disabled:opacity-50">
                  Retry last message
                </button>
              )}
              {phase !== "idle" ? (
                <button type="button" onClick={() => abort.current?.abort()} className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50">
                  Stop
                </button>
              ) : (
                <button type="submit" disabled={busy || !content.trim()} className="rounded bg-sky-700 px-3 py-1 text-sm font-medium text-white hover:bg-sky-800 disabled:opacity-50">
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
