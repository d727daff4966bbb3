"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Where typing happens: a key pressed there is text, not a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * `/` anywhere in the app (not while typing in a field): focuses the page's search box (the one
 * marked `data-search-box`: the thread list's, the search page's, a thread's find box), or opens
 * /search on a page without one.
 */
export function SearchKey() {
  const router = useRouter();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      const box = document.querySelector<HTMLInputElement>("input[data-search-box]");
      if (box) {
        box.focus();
        box.select();
      } else {
        router.push("/search");
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [router]);
  return null;
}
