"use client";

import { useId, useState } from "react";
import type { Turn } from "@/lib/domain/types";
import { formatInteger } from "@/lib/format";
import { partText, type PartField } from "./part-text";
import { apiFetch } from "@/lib/queries/api-client";

type Full = { status: "idle" } | { status: "loading" } | { status: "failed"; message: string } | { status: "loaded"; text: string };

/**
 * A long part's text (tool arguments, a tool result, thinking) as plain text: the page carries only
 * its start; "Show all" loads the part's turn from `fullUrl` and shows the whole field, "Show less"
 * goes back to the start. Never Markdown, never HTML: the text is untrusted.
 */
export function LongText({
  preview,
  total,
  fullUrl,
  partIndex,
  field,
  className,
}: {
  preview: string;
  total: number;
  fullUrl: string;
  partIndex: number;
  field: PartField;
  className: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const [full, setFull] = useState<Full>({ status: "idle" });
  const id = useId();

  const expand = async () => {
    if (full.status === "loaded") return setExpanded(true);
    if (full.status === "loading") return;
    setFull({ status: "loading" });
    try {
      const body = await apiFetch<{ turn?: Turn }>(fullUrl, { fallback: "Loading the turn failed" });
      if (!body.turn) throw new Error("Loading the turn failed: the answer holds no turn");
      const text = partText(body.turn.parts?.[partIndex], field);
      if (text === null) throw new Error("The turn no longer has this part");
      setFull({ status: "loaded", text });
      setExpanded(true);
    } catch (error) {
      setFull({ status: "failed", message: error instanceof Error ? error.message : "Loading the turn failed" });
    }
  };

  const shown = expanded && full.status === "loaded" ? full.text : preview;
  return (
    <div>
      <pre id={id} className={className}>
        {shown}
        {!expanded && <span className="text-zinc-400">{"\n"}…</span>}
      </pre>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={id}
        aria-busy={full.status === "loading"}
        onClick={() => (expanded ? setExpanded(false) : void expand())}
        className="mt-1 text-xs font-medium text-indigo-700 hover:underline"
      >
        {full.status === "loading" ? "Loading…" : expanded ? "Show less" : `Show all (${formatInteger(total)} characters)`}
      </button>
      {full.status === "failed" && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {full.message}
        </p>
      )}
    </div>
  );
}
