"use client";

import { useRouter } from "next/navigation";
import type { KeyBinding } from "@/lib/domain/display/keys";
import { usePageKeys } from "./use-page-keys";

const SEARCH_KEYS: readonly KeyBinding<"search">[] = [{ keys: ["/"], action: "search", label: "Search titles and turns" }];

/**
 * `/` anywhere in the app (not while typing in a field): focuses the page's search box (the one
 * marked `data-search-box`: the thread list's, the search page's, a thread's find box), or opens
 * /search on a page without one. Pages list `/` in their own shortcuts dialog; this is its one handler.
 */
export function SearchKey() {
  const router = useRouter();
  usePageKeys(SEARCH_KEYS, () => {
    const box = document.querySelector<HTMLInputElement>("input[data-search-box]");
    if (box) {
      box.focus();
      box.select();
    } else {
      router.push("/search");
    }
  });
  return null;
}
