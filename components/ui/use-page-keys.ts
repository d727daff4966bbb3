"use client";

import { useEffect, useRef } from "react";
import { keyAction, type KeyBinding } from "@/lib/domain/display/keys";

/**
 * A page's keyboard shortcuts (the thread list's, the thread page's): a key anywhere on the page
 * but in a field runs `onAction` with its binding's action (lib/domain/display/keys.ts), unless something
 * took the key before (defaultPrevented) or a modal dialog is open. `onAction` answers false when
 * it did nothing with the key, which then keeps its usual effect (Enter on a button). The latest
 * `onAction` is called, so it may read the page's state freely.
 */
export function usePageKeys<A extends string>(
  bindings: readonly KeyBinding<A>[],
  onAction: (action: A) => boolean | void,
  enabled = true,
): void {
  const latest = useRef(onAction);
  useEffect(() => {
    latest.current = onAction;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const action = keyAction(bindings, { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, target });
      if (action === null) return;
      if (latest.current(action) !== false) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [bindings, enabled]);
}
