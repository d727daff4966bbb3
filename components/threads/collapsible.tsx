"use client";

import dynamic from "next/dynamic";
import { useId, useState, type ReactNode } from "react";
import type { Turn } from "@/lib/domain/types";
import { useTurn } from "@/lib/queries/hooks";
import { AnsiText } from "./ansi";

/** Above this, a loaded turn is shown as plain text: Markdown and highlighting would stall the tab. */
const MARKDOWN_LIMIT = 200_000;

// Loaded only when a long turn is expanded: the list of turns itself is rendered on the server.
const MarkdownContent = dynamic(() => import("./markdown").then((m) => m.MarkdownContent), {
  loading: () => <p className="text-sm text-zinc-500">Rendering…</p>,
});

/** The loaded turn's content, or with `partIndex` the text of that part (null when it has none). */
function fullContent(turn: Turn, partIndex: number | undefined): string | null {
  if (partIndex === undefined) return turn.content;
  const part = turn.parts?.[partIndex];
  return part && "text" in part && typeof part.text === "string" ? part.text : null;
}

/**
 * Long content starts collapsed to a fixed height with a button to show all of it. Collapsed, the
 * clipped content is inert, so Tab does not land in links no one can see. With `fullUrl`, the
 * children are only a preview (a huge turn is not sent with the page): expanding loads the turn
 * from there ({turn}) and shows its content instead, or with `partIndex` the text of that part.
 */
export function Collapsible({
  collapsedByDefault,
  summary,
  fullUrl,
  partIndex,
  children,
}: {
  collapsedByDefault: boolean;
  summary: string;
  fullUrl?: string;
  /** With fullUrl: show this text part of the loaded turn rather than its whole content. */
  partIndex?: number;
  children: ReactNode;
}) {
  const [collapsed, setCollapsed] = useState(collapsedByDefault);
  const full = useTurn(fullUrl);
  const id = useId();
  if (!collapsedByDefault) return <>{children}</>;

  const content = full.turn === null ? null : fullContent(full.turn, partIndex);
  const error = full.error ?? (full.turn !== null && content === null ? "The turn no longer has this part" : null);
  // With a fullUrl, the content is shown once it is loaded; until then the preview stays collapsed.
  const open = !collapsed && (!fullUrl || content !== null);
  const expand = () => {
    setCollapsed(false);
    if (fullUrl && content === null) full.load();
  };

  return (
    <div>
      <div id={id} inert={!open} className={open ? undefined : "relative max-h-64 overflow-hidden"}>
        {!open || content === null ? (
          children
        ) : content.length > MARKDOWN_LIMIT ? (
          <pre className="text-sm break-words whitespace-pre-wrap" data-testid="plain-content">
            <AnsiText text={content} />
          </pre>
        ) : (
          <MarkdownContent text={content} />
        )}
        {!open && <div className="pointer-events-none absolute inset-x-0 bottom-0 h-16 bg-gradient-to-t from-white" />}
      </div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-busy={full.loading}
        onClick={() => (open ? setCollapsed(true) : expand())}
        className="mt-2 text-sm font-medium text-indigo-700 hover:underline"
      >
        {full.loading ? "Loading…" : open ? "Collapse" : `Show all (${summary})`}
      </button>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
