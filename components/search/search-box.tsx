"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";

/**
 * The search page's box: submitting goes to /search?q=... (a new history entry, so Back returns
 * to the words before). `/` focuses it from anywhere on the page (components/ui/search-key.tsx).
 */
export function SearchBox({ initialQuery }: { initialQuery: string }) {
  const router = useRouter();
  const id = useId();
  const [text, setText] = useState(initialQuery);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    router.push(q ? `/search?${new URLSearchParams({ q })}` : "/search");
  };
  return (
    <form role="search" onSubmit={submit} className="mb-6 flex flex-wrap items-end gap-2">
      <label htmlFor={id} className="sr-only">
        Search every thread
      </label>
      <input
        id={id}
        type="search"
        name="q"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Words to find"
        maxLength={500}
        data-search-box
        className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-3 py-2"
      />
      <button type="submit" className="rounded bg-indigo-700 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-800">
        Search
      </button>
    </form>
  );
}
