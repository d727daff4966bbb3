"use client";

import dynamic from "next/dynamic";
import { useId, useState, type ReactNode } from "react";
import type { Turn } from "@/lib/domain/types";
import { apiFetch } from "@/lib/queries/api-client";

/** Above this, a loaded turn is shown as plain text: Markdown and highlighting would stall the tab. */
const MARKDOWN_LIMIT = 200_000;

// Loaded only when a long turn is expanded: the list of turns itself is rendered on the server.
const MarkdownContent = dynamic(() => import("./markdown").then((m) => m.MarkdownContent), {
  loading: () => <p className="text-sm text-zinc-500">Rendering…</p>,
});

type Full = { status: "idle" } | { status: "loading" } | { status: "failed"; message: string } | { status: "loaded"; content: string };

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
  const [full, setFull] = useState<Full>({ status: "idle" });
  const id = useId();
  if (!collapsedByDefault) return <>{children}</>;

  const expand = async () => {
    if (full.status === "loading") return;
    if (!fullUrl || full.status === "loaded") return setCollapsed(false);
    setFull({ status: "loading" });
    try {
      const body = await apiFetch<{ turn?: Turn }>(fullUrl, { fallback: "Loading the turn failed" });
      if (!body.turn) throw new Error("Loading the turn failed: the answer holds no turn");
      const part = partIndex === undefined ? undefined : body.turn.parts?.[partIndex];
      const content = partIndex === undefined ? body.turn.content : part && "text" in part && typeof part.text === "string" ? part.text : null;
      if (content === null) throw new Error("The turn no longer has this part");
      setFull({ status: "loaded", content });
      setCollapsed(false);
    } catch (error) {
      setFull({ status: "failed", message: error instanceof Error ? error.message : "Loading the turn failed" });
    }
  };

  return (
    <div>
      <div id={id} inert={collapsed} className={collapsed ? "relative max-h-64 overflow-hidden" : undefined}>
        {collapsed || full.status !== "loaded" ? (
          children
        ) : full.content.length > MARKDOWN_LIMIT ? (
          <pre className="text-sm break-words whitespace-pre-wrap" data-testid="plain-content">
            {full.content}
          </pre>
        ) : (
          <MarkdownContent text={full.content} />
        )}
        {collapsed && <div className="pointer-events-none absolute inset-x-0 bottom-0 h-16 bg-gradient-to-t from-white" />}
      </div>
      <button
        type="button"
        aria-expanded={!collapsed}
        aria-controls={id}
        aria-busy={full.status === "loading"}
        onClick={() => (collapsed ? void expand() : setCollapsed(true))}
        className="mt-2 text-sm font-medium text-indigo-700 hover:underline"
      >
        {full.status === "loading" ? "Loading…" : collapsed ? `Show all (${summary})` : "Collapse"}
      </button>
      {full.status === "failed" && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {full.message}
        </p>
      )}
    </div>
  );
}
