"use client";

import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { requestSecretValue } from "@/lib/queries/secrets";

/**
 * A mask in a turn (`[GitHub token …a41f]`) and its reveal. For people allowed to reveal
 * (SecretRevealProvider: with sign-in off anyone, with it on admins), the mask is a button that
 * asks POST /api/secrets/reveal for that one value and shows it in its place, with a button to hide
 * it again. The value lives in this component's state only: not in the query cache, not in the
 * URL, not logged; a reload shows the mask again. Everyone else sees the mask as text.
 */

const RevealAllowed = createContext(false);
const TurnOfMasks = createContext<{ threadId: string; turnId: string } | null>(null);

/** Whether the people looking at these pages may reveal secrets (the server decides; the reveal endpoint checks again). */
export function SecretRevealProvider({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  return <RevealAllowed.Provider value={allowed}>{children}</RevealAllowed.Provider>;
}

/** The turn the masks inside belong to: a reveal names it. */
export function SecretMaskScope({ threadId, turnId, children }: { threadId: string; turnId: string; children: ReactNode }) {
  return <TurnOfMasks.Provider value={{ threadId, turnId }}>{children}</TurnOfMasks.Provider>;
}

const MASK_LOOK = "rounded bg-amber-100 px-1 font-mono text-[0.85em] text-amber-900";

export function SecretMask({ mask, label, fingerprint }: { mask: string; label: string; fingerprint: string }) {
  const allowed = useContext(RevealAllowed);
  const turn = useContext(TurnOfMasks);
  const [value, setValue] = useState<string | null>(null);
  const [state, setState] = useState<"idle" | "loading" | { failed: string }>("idle");
  // Focus follows the control that replaced the one pressed (Reveal -> Hide -> the mask again).
  const hide = useRef<HTMLButtonElement>(null);
  const again = useRef<HTMLButtonElement>(null);
  const moveFocus = useRef(false);
  useEffect(() => {
    if (moveFocus.current) (value === null ? again : hide).current?.focus();
    moveFocus.current = false;
  }, [value]);

  if (!allowed || !turn) {
    return (
      <span className={MASK_LOOK} title={`A ${label}, masked`} data-testid="secret-mask">
        {mask}
      </span>
    );
  }
  if (value !== null) {
    return (
      <span className="inline-flex flex-wrap items-baseline gap-1" data-testid="secret-revealed">
        <code className="rounded bg-red-50 px-1 font-mono text-[0.85em] break-all text-red-900" data-testid="secret-value">
          {value}
        </code>
        <button
          ref={hide}
          type="button"
          onClick={() => {
            moveFocus.current = true;
            setValue(null);
          }}
          className="text-xs font-medium text-indigo-700 hover:underline"
          aria-label={`Hide the ${label} …${fingerprint}`}
        >
          Hide
        </button>
      </span>
    );
  }
  const reveal = async () => {
    setState("loading");
    try {
      const revealed = await requestSecretValue({ threadId: turn.threadId, turnId: turn.turnId, fingerprint });
      moveFocus.current = true;
      setValue(revealed);
      setState("idle");
    } catch (error) {
      setState({ failed: (error as Error).message });
    }
  };
  const failed = typeof state === "object" ? state.failed : null;
  return (
    <button
      ref={again}
      type="button"
      onClick={() => void reveal()}
      disabled={state === "loading"}
      aria-busy={state === "loading"}
      aria-label={`Reveal the ${label} …${fingerprint}`}
      title={failed ?? `Reveal this ${label}`}
      className={`${MASK_LOOK} cursor-pointer hover:bg-amber-200 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60`}
      data-testid="secret-mask"
    >
      {mask}
      {failed && <span className="sr-only"> ({failed})</span>}
    </button>
  );
}
