"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type RefObject } from "react";
import { isSubagentThread } from "@/lib/domain/threads/links";
import { namesATool } from "@/lib/domain/threads/thread-tools";
import { shownTitle } from "@/lib/domain/threads/title";
import type { Thread } from "@/lib/domain/types";
import { formatDateTime, plural } from "@/lib/format";
import { useThreadList, useThreadListHead } from "@/lib/queries/hooks";
import { FILTER_KEYS, type ThreadFilters } from "@/lib/queries/threads";
import { threadFiltersQuery } from "@/lib/queries/url-state";
import { sourceLabel } from "@/lib/domain/display/source";
import { SessionFigure } from "@/components/ui/session-figure";
import { ShortcutsDialog } from "@/components/ui/shortcuts-dialog";
import { SyncProgress } from "@/components/sources/sync-progress";
import { DemoNotice } from "./demo-notice";
import { LIST_KEYS, useListKeys } from "./use-list-keys";

type Option = { value: string; label: string };
type Props = {
  initialFilters: ThreadFilters;
  facets: { tools: Option[]; models: string[]; sources: string[]; projects: string[] };
  /** How many demo threads the database holds, and whether this person may remove them (the notice above the list). */
  demo?: { count: number; canRemove: boolean };
  /** Whether to show a running sync's progress above the list (the page prefetches the followed folders' status for it). */
  syncProgress?: boolean;
};

const SEARCH_DELAY_MS = 250;

/** The first page of the initial filters comes prefetched from the server (app/threads/page.tsx, Prefetched). */
export function ThreadList({ initialFilters, facets, demo, syncProgress = false }: Props) {
  const { filters, setFilters, searchText, setSearchText, openSearch } = useFilters(initialFilters);
  const query = useThreadList(filters);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useNextPageWhenSeen(sentinel, query);

  const listed = query.data?.pages.flatMap((p) => p.items) ?? [];
  const threads = withNewest(listed, useThreadListHead(filters));
  const filtered = FILTER_KEYS.some((key) => Boolean(filters[key]));
  const { selected, select, dialog: keysDialog } = useListKeys(threads.map((thread) => thread.id));
  const keysTitle = useId();

  return (
    <div>
      <FilterForm
        facets={facets}
        filters={filters}
        onFilters={setFilters}
        searchText={searchText}
        onSearchText={setSearchText}
        onOpenSearch={openSearch}
        onShowKeys={() => keysDialog.current?.showModal()}
      />
      <ShortcutsDialog ref={keysDialog} titleId={keysTitle} bindings={LIST_KEYS} />
      {/* Below the search, which stays the first stop after the navigation. */}
      {syncProgress && <SyncProgress />}
      {demo && demo.count > 0 && <DemoNotice count={demo.count} canRemove={demo.canRemove} />}

      {query.isError && (
        <p role="alert" className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {query.error.message}{" "}
          <button type="button" className="underline" onClick={() => void query.refetch()}>
            Retry
          </button>
        </p>
      )}

      {query.isPending ? (
        <p className="py-8 text-center text-zinc-500" aria-live="polite">
          Loading threads…
        </p>
      ) : threads.length === 0 ? (
        filtered ? (
          <p className="rounded border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600">
            No thread matches these filters.
          </p>
        ) : (
          <EmptyState />
        )
      ) : (
        <ul className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white" aria-label="Threads">
          {threads.map((thread) => (
            <ThreadRow key={thread.id} thread={thread} selected={selected === thread.id} onSelect={select} />
          ))}
        </ul>
      )}

      <div ref={sentinel} className="py-4 text-center text-sm text-zinc-500">
        {isFetchingNextPage ? (
          <span aria-live="polite">Loading more…</span>
        ) : hasNextPage ? (
          <button type="button" className="rounded border border-zinc-300 bg-white px-3 py-1.5" onClick={() => void fetchNextPage()}>
            Load more
          </button>
        ) : threads.length > 0 ? (
          <span>
            {threads.length} thread{threads.length === 1 ? "" : "s"}
          </span>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The list's filters and the search box's text (its words filter once typing pauses), and leaving
 * for the search page. The URL keeps the filters so a reload or a shared link shows the same list.
 */
function useFilters(initialFilters: ThreadFilters) {
  const pathname = usePathname();
  const router = useRouter();
  const [filters, setFilters] = useState<ThreadFilters>(initialFilters);
  const [searchText, setSearchText] = useState(initialFilters.q ?? "");

  useEffect(() => {
    const handle = setTimeout(
      () => setFilters((f) => (f.q === (searchText.trim() || undefined) ? f : { ...f, q: searchText.trim() || undefined })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(handle);
  }, [searchText]);
  // Set when Enter leaves for the search page: a debounced filter must not write this page's URL over it.
  const leaving = useRef(false);
  useEffect(() => {
    if (leaving.current) return;
    // Only the URL changes: the list fetches its own data, and router.replace re-rendered the
    // whole page on the server on every debounced keystroke. Next.js keeps its router in step.
    window.history.replaceState(null, "", `${pathname}${threadFiltersQuery(filters)}`);
  }, [filters, pathname]);
  const openSearch = (q: string) => {
    leaving.current = true;
    router.push(`/search?${new URLSearchParams({ q })}`);
  };
  return { filters, setFilters, searchText, setSearchText, openSearch };
}

/** Reads the next page when the element below the list comes near the screen. */
function useNextPageWhenSeen(
  sentinel: RefObject<HTMLDivElement | null>,
  {
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
  }: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> },
) {
  useEffect(() => {
    const node = sentinel.current;
    if (!node) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [sentinel, hasNextPage, isFetchingNextPage, fetchNextPage]);
}

/** The search box and the filters. Typing filters the list; Enter opens the search page, with every hit and where it matched. */
function FilterForm({
  facets,
  filters,
  onFilters,
  searchText,
  onSearchText,
  onOpenSearch,
  onShowKeys,
}: {
  facets: Props["facets"];
  filters: ThreadFilters;
  onFilters: (filters: ThreadFilters) => void;
  searchText: string;
  onSearchText: (text: string) => void;
  onOpenSearch: (q: string) => void;
  onShowKeys: () => void;
}) {
  return (
    <form
      role="search"
      className="mb-4 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const q = searchText.trim();
        if (!q) return;
        onOpenSearch(q);
      }}
    >
      <label className="flex min-w-56 flex-1 flex-col text-sm">
        <span className="mb-1 text-zinc-600">Search titles and turns</span>
        <input
          type="search"
          value={searchText}
          onChange={(e) => onSearchText(e.target.value)}
          placeholder="e.g. token refresh"
          title="Enter: show every turn that matches"
          data-search-box
          className="rounded border border-zinc-300 bg-white px-3 py-2"
        />
      </label>
      {(facets.sources.length > 1 || filters.source) && (
        <FilterSelect
          label="Agent"
          allLabel="All agents"
          options={facets.sources.map((source) => ({ value: source, label: sourceLabel(source) }))}
          value={filters.source}
          onChange={(source) => onFilters({ ...filters, source })}
        />
      )}
      <FilterSelect
        label="Tool"
        allLabel="All tools"
        options={facets.tools}
        value={filters.tool}
        onChange={(tool) => onFilters({ ...filters, tool })}
      />
      <FilterSelect
        label="Model"
        allLabel="All models"
        options={facets.models.map(plainOption)}
        value={filters.model}
        onChange={(model) => onFilters({ ...filters, model })}
      />
      {facets.projects.length > 0 && (
        <FilterSelect
          label="Project"
          allLabel="All projects"
          options={facets.projects.map(plainOption)}
          value={filters.project}
          onChange={(project) => onFilters({ ...filters, project })}
        />
      )}
      <button
        type="button"
        onClick={onShowKeys}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        className="rounded border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-700 hover:bg-zinc-50"
      >
        ?
      </button>
    </form>
  );
}

/** One thread of the list: its title (a link), marks, date, and what it is made of. */
function ThreadRow({ thread, selected, onSelect }: { thread: ListedThread; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <li
      className={`px-4 py-3 ${selected ? "bg-indigo-50 shadow-[inset_3px_0_0_var(--color-indigo-600)]" : "hover:bg-zinc-50"}`}
      data-fresh={thread.fresh ?? undefined}
      data-thread-id={thread.id}
      data-selected={selected || undefined}
      onFocus={() => onSelect(thread.id)}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        {thread.fresh && (
          <span className="inline-flex items-center gap-1 text-xs font-medium text-indigo-700">
            <span aria-hidden="true" className="size-2 rounded-full bg-indigo-600" />
            {thread.fresh}
          </span>
        )}
        {/* A row of its own on small screens, so the date does not squeeze the title. Not
            prefetched: a long list would fetch every thread page. */}
        <Link
          href={`/threads/${thread.id}`}
          prefetch={false}
          className="min-w-0 basis-full font-medium break-words text-zinc-900 hover:underline sm:flex-1 sm:truncate"
        >
          <ListedTitle title={thread.title} />
        </Link>
        {isSubagentThread(thread) && <SubagentMark parentTitle={thread.parentTitle} />}
        {thread.expired && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800">expired</span>}
        <time dateTime={thread.lastUpdatedAt} className="text-xs text-zinc-500">
          {formatDateTime(thread.lastUpdatedAt)}
        </time>
      </div>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600">
        {thread.source !== "api" && <span className="font-medium text-zinc-700">{sourceLabel(thread.source)}</span>}
        {namesATool(thread.source) && (
          <span className="min-w-0 break-all">
            tool <span className="font-mono text-zinc-800">{thread.toolName}</span>
          </span>
        )}
        {thread.modelsUsed.length > 0 && (
          <span className="min-w-0 break-words">
            models <span className="font-mono text-zinc-800">{thread.modelsUsed.join(", ")}</span>
          </span>
        )}
        {thread.project && (
          <span className="min-w-0 break-all" title="Working directory of the session">
            project <span className="font-mono text-zinc-800">{thread.project}</span>
          </span>
        )}
        <span>{plural(thread.turnCount, "turn")}</span>
        <SessionFigure figures={thread.figures} />
        {/* Only a thread that can expire says when: one with no expiry (every imported session) says nothing. */}
        {thread.expiresAt !== null && (
          <span>{thread.expired ? `expired ${formatDateTime(thread.expiresAt)}` : `expires ${formatDateTime(thread.expiresAt)}`}</span>
        )}
      </div>
    </li>
  );
}

function plainOption(value: string): Option {
  return { value, label: value };
}

/** A title cut to one line at a word boundary, the whole of it in the tooltip. */
function ListedTitle({ title }: { title: string | null }) {
  const shown = shownTitle(title);
  return <span title={shown.cut ? shown.full : undefined}>{shown.text}</span>;
}

/** A sub-agent's thread: a badge (words, not a colour alone), and what ran it where its title is known. */
function SubagentMark({ parentTitle }: { parentTitle: string | null | undefined }) {
  const parent = parentTitle ? shownTitle(parentTitle, 48) : null;
  return (
    <span className="inline-flex min-w-0 items-baseline gap-1 text-xs text-violet-800" data-testid="subagent-mark">
      <span className="rounded border border-violet-300 bg-violet-50 px-1.5 py-0.5 font-medium whitespace-nowrap">sub-agent</span>
      {parent && (
        <span className="min-w-0 break-words text-zinc-600" title={parent.cut ? parent.full : undefined}>
          of “{parent.text}”
        </span>
      )}
    </span>
  );
}

function FilterSelect(props: {
  label: string;
  allLabel: string;
  options: Option[];
  value?: string;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label className="flex flex-col text-sm">
      <span className="mb-1 text-zinc-600">{props.label}</span>
      <select
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value || undefined)}
        className="max-w-56 rounded border border-zinc-300 bg-white px-2 py-2"
      >
        <option value="">{props.allLabel}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The listed threads with those of the list's first page as it is now put first: a thread that was
 * not listed is "new", one written to since it was listed "updated" (and moved up from its row).
 */
type ListedThread = Thread & { fresh?: "new" | "updated" };

function withNewest(listed: Thread[], head: Thread[] | undefined): ListedThread[] {
  if (!head) return listed;
  const before = new Map(listed.map((thread) => [thread.id, thread.lastUpdatedAt]));
  const fresh = head.flatMap((thread): ListedThread[] => {
    const was = before.get(thread.id);
    if (was === undefined) return [{ ...thread, fresh: "new" }];
    return Date.parse(thread.lastUpdatedAt) > Date.parse(was) ? [{ ...thread, fresh: "updated" }] : [];
  });
  if (fresh.length === 0) return listed;
  const moved = new Set(fresh.map((thread) => thread.id));
  return [...fresh, ...listed.filter((thread) => !moved.has(thread.id))];
}

function EmptyState() {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-8 text-zinc-700">
      <h2 className="text-lg font-semibold">No conversations yet</h2>
      <p className="mt-2">Threadline keeps conversation threads that agents write to it. To get some in:</p>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-sm">
        <li>
          <Link href="/import" className="text-indigo-700 underline">
            Import
          </Link>{" "}
          the transcripts your agents wrote (Claude Code, Codex, Gemini CLI, OpenCode, Pi, Copilot CLI, Aider, ChatGPT, PAL, pydantic-ai) or
          a Threadline JSON export, or run <code className="rounded bg-zinc-100 px-1">npm run import -- ~/.claude/projects</code>.
        </li>
        <li>
          Have an agent create threads over the REST API: <code className="rounded bg-zinc-100 px-1">POST /api/threads</code> then{" "}
          <code className="rounded bg-zinc-100 px-1">POST /api/threads/:id/turns</code>.
        </li>
        <li>
          Load the demo set: <code className="rounded bg-zinc-100 px-1">npm run db:seed</code>.
        </li>
      </ul>
    </div>
  );
}
