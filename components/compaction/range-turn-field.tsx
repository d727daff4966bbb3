"use client";

import { useState } from "react";
import { useTurnSummaries } from "@/lib/queries/use-turn-summaries";
import { TurnLabel } from "./workbench-parts";

/**
 * The range's turn, by its number (1 to `count`), with the start of what it says beneath: a list of
 * 10,000 turns is no way to choose one. `at` and `onChange` are 0-based turn indexes.
 */
export function RangeTurnField({
  threadId,
  count,
  at,
  onChange,
}: {
  threadId: string;
  count: number;
  at: number;
  onChange: (at: number) => void;
}) {
  const [text, setText] = useState(String(at + 1));
  // Set from outside (a job's form restored): show it, unless the text already says it.
  const [shown, setShown] = useState(at);
  if (shown !== at) {
    setShown(at);
    if (Number(text) !== at + 1) setText(String(at + 1));
  }
  const turn = useTurnSummaries(threadId, [at])(at);
  const valid = (n: number) => Number.isInteger(n) && n >= 1 && n <= count;
  return (
    <label className="flex min-w-0 flex-1 flex-col">
      <span className="mb-1 text-zinc-600">Turn (1 to {count.toLocaleString("en-US")})</span>
      <input
        type="number"
        min={1}
        max={count}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = Number(e.target.value);
          if (valid(n)) onChange(n - 1);
        }}
        aria-invalid={!valid(Number(text))}
        className="w-32 rounded border border-zinc-300 px-2 py-1.5"
      />
      <span className="mt-1 line-clamp-2 text-xs break-words text-zinc-500" data-testid="range-turn">
        <TurnLabel index={at} turn={turn} />
        {turn ? `: ${turn.excerpt.slice(0, 160)}` : null}
      </span>
    </label>
  );
}
