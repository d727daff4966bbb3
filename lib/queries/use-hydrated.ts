"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has hydrated the page, true after. A button whose
 * work needs JavaScript stays disabled until then, so an early click is never silently lost
 * (and Playwright, which waits for enabled controls, clicks it when it works).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
