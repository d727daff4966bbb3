"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const PREFIX = "#turn-";

/**
 * The chain page shows one window of turns, but a turn's links (a tool call's result "turn #N", a
 * result's call) may name a turn outside it, and so may an address ending in #turn-<id>. This
 * opens the window holding that turn (?at=<turn id>) instead of going nowhere. Renders nothing.
 */
export function TurnLinksAcrossWindows({ chainPath }: { chainPath: string }) {
  const router = useRouter();
  useEffect(() => {
    const open = (hash: string, replace: boolean) => {
      const url = `${chainPath}?at=${encodeURIComponent(hash.slice(PREFIX.length))}${hash}`;
      if (replace) router.replace(url);
      else router.push(url);
    };
    const missing = (hash: string) => hash.startsWith(PREFIX) && document.getElementById(decodeURIComponent(hash.slice(1))) === null;
    // Asked for already (?at=): the turn is not in this chain, and asking again would loop.
    const asked = new URLSearchParams(location.search).get("at");
    if (missing(location.hash) && asked !== decodeURIComponent(location.hash.slice(PREFIX.length))) open(location.hash, true);
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      const hash = link?.getAttribute("href") ?? "";
      if (!missing(hash)) return;
      event.preventDefault();
      open(hash, false);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [chainPath, router]);
  return null;
}
