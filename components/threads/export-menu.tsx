"use client";

import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { exportUrl, fetchEncryptedExport, type ExportChoice } from "@/lib/queries/exports";
import { useHydrated } from "@/lib/queries/use-hydrated";

const MIN_PASSWORD = 8;

type Props = {
  threadId: string;
  expired: boolean;
  /** Secrets found in the thread's turns: the exports then default to the redacted copy. */
  secretCount: number;
  /** Whether this person may export secrets as stored (an admin, or sign-in off); others get redacted copies only. */
  lossless: boolean;
  /** The thread has sub-agent threads: offer them inlined (HTML, Markdown). */
  hasSubagents: boolean;
  /** The thread continues another: offer the whole chain. */
  inChain: boolean;
};

const LINK = "block rounded px-2 py-1 text-sm text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600";

/**
 * The thread's export, as one small disclosure (a <details>: it opens with the keyboard and
 * without scripts): HTML and Markdown to read, JSON to re-import, options where they apply, and
 * the HTML encrypted with a password. Secrets are redacted by default when the thread has some;
 * someone who may not see them gets the redacted copies only.
 */
export function ExportMenu({ threadId, expired, secretCount, lossless, hasSubagents, inChain }: Props) {
  const [redact, setRedact] = useState(true);
  const [subagents, setSubagents] = useState(false);
  const [chain, setChain] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  // Without secrets to choose about, each format keeps the API's default (json lossless, html and md redacted).
  const chosen = secretCount > 0 || !lossless;
  const choice = (format: ExportChoice["format"]): ExportChoice => ({
    format,
    redact: chosen ? redact : format !== "json",
    subagents,
    chain,
    includeExpired: expired,
  });
  // Escape closes the menu and gives the focus back to its button.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !menu.current?.open) return;
    menu.current.open = false;
    menu.current.querySelector("summary")?.focus();
  };
  return (
    <details ref={menu} className="relative" data-testid="export-menu" onKeyDown={onKeyDown}>
      <summary className="cursor-pointer list-none rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 [&::-webkit-details-marker]:hidden">
        Export <span aria-hidden>▾</span>
      </summary>
      {/* z-30: above the sticky reader toolbar (z-20), which comes later in the page. */}
      <div className="absolute right-0 z-30 mt-1 w-72 max-w-[calc(100vw-2rem)] space-y-3 rounded-lg border border-zinc-200 bg-white p-3 text-sm shadow-lg">
        <ul className="space-y-0.5" aria-label="Download">
          <li>
            <a href={exportUrl(threadId, choice("html"))} download className={LINK}>
              Export HTML <span className="text-xs text-zinc-500">one page to read, works offline</span>
            </a>
          </li>
          <li>
            <a href={exportUrl(threadId, choice("md"))} download className={LINK}>
              Export Markdown
            </a>
          </li>
          <li>
            <a href={exportUrl(threadId, choice("json"))} download className={LINK}>
              Export JSON{" "}
              <span className="text-xs text-zinc-500">
                {choice("json").redact ? "re-imports, secrets redacted" : "lossless, re-imports"}
              </span>
            </a>
          </li>
        </ul>
        <fieldset className="space-y-1 border-t border-zinc-100 pt-2">
          <legend className="sr-only">Options</legend>
          {secretCount > 0 &&
            (lossless ? (
              <Check
                label={`Redact ${secretCount === 1 ? "the secret" : `${secretCount} secrets`}`}
                checked={redact}
                onChange={setRedact}
                testId="export-redact"
              />
            ) : (
              <p className="text-xs text-zinc-600">Secrets are redacted: only an admin may export them.</p>
            ))}
          {hasSubagents && <Check label="Include sub-agents (HTML, Markdown)" checked={subagents} onChange={setSubagents} />}
          {inChain && <Check label="Whole chain" checked={chain} onChange={setChain} />}
        </fieldset>
        <EncryptedExport threadId={threadId} choice={{ redact: choice("html").redact, subagents, chain, includeExpired: expired }} />
      </div>
    </details>
  );
}

function Check({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  testId?: string;
}) {
  const hydrated = useHydrated();
  return (
    <label className="flex items-center gap-2 text-zinc-800">
      <input
        type="checkbox"
        checked={checked}
        disabled={!hydrated}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
      {label}
    </label>
  );
}

/** "Encrypted HTML…": a password, then the file (POSTed: the password never goes in an address). */
function EncryptedExport({ threadId, choice }: { threadId: string; choice: Omit<ExportChoice, "format"> }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const inputId = useId();
  const errorId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < MIN_PASSWORD) {
      setError(`The password must be at least ${MIN_PASSWORD} characters.`);
      return;
    }
    setError(null);
    setPending(true);
    try {
      const { blob, filename } = await fetchEncryptedExport(threadId, { ...choice, password });
      const url = URL.createObjectURL(blob);
      const link = Object.assign(document.createElement("a"), { href: url, download: filename });
      link.click();
      URL.revokeObjectURL(url);
      setPassword("");
    } catch (failed) {
      setError(failed instanceof Error ? failed.message : String(failed));
    } finally {
      setPending(false);
    }
  };
  if (!open) {
    return (
      <button
        type="button"
        disabled={!hydrated}
        onClick={() => setOpen(true)}
        className="w-full rounded border border-zinc-300 px-2 py-1 text-left text-sm text-zinc-800 hover:bg-zinc-50 disabled:opacity-60"
      >
        Encrypted HTML…
      </button>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-2 border-t border-zinc-100 pt-2" noValidate>
      <label htmlFor={inputId} className="block text-zinc-800">
        Password for the encrypted HTML
      </label>
      <input
        id={inputId}
        type="password"
        autoComplete="new-password"
        autoFocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        className="w-full rounded border border-zinc-300 px-2 py-1"
      />
      <p className="text-xs text-zinc-600">
        At least {MIN_PASSWORD} characters. The file opens in a browser with it; it is not kept anywhere.
      </p>
      {error && (
        <p id={errorId} role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-indigo-600 px-3 py-1 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? "Encrypting…" : "Download encrypted HTML"}
      </button>
    </form>
  );
}
