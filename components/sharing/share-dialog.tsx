"use client";

import { useId, useState } from "react";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { SHARE_EXPIRY_CHOICES, SHARE_EXPIRY_HOURS, type CreatedShareLink } from "@/lib/domain/sharing/share-links";
import { formatDateTime } from "@/lib/format";
import { useCreateShare, useShares } from "@/lib/queries/use-shares";
import { ShareLinksTable } from "./share-links-table";

const BUTTON = "rounded border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-50";

/**
 * "Share…": a link that shows this thread read-only, secrets redacted, to anyone holding it, with
 * no account, until it expires or is revoked (lib/sharing). The link is shown once, when made;
 * the thread's existing links are listed below with their Revoke buttons.
 */
export function ShareButton({ threadId, hasSubagents }: Readonly<{ threadId: string; hasSubagents: boolean }>) {
  const linksId = useId();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const createShare = useCreateShare();
  const links = useShares(threadId, open);

  const onOpenChange = (opened: boolean) => {
    setOpen(opened);
    if (opened) return;
    // Shown once: closing the dialog forgets it.
    setCreated(null);
    createShare.reset();
  };

  async function create(form: FormData) {
    setCreated(null);
    try {
      setCreated(
        await createShare.mutateAsync({
          threadId,
          expiresInHours: Number(form.get("expiresInHours")),
          subagents: form.get("subagents") === "on",
        }),
      );
    } catch {
      // Shown from the mutation's error below.
    }
  }

  return (
    <ModalDialog
      label="Share…"
      title="Share this thread"
      description="Anyone with the link can read this thread, with its secrets redacted, without an account, until the link expires or you revoke it."
      buttonClassName={BUTTON}
      widthClassName="w-[40rem]"
      testId="share-dialog"
      onOpenChange={onOpenChange}
    >
      <form action={create} className="flex flex-wrap items-end gap-3" aria-label="Create a share link">
        <label className="flex flex-col text-sm">
          <span className="mb-1 text-zinc-600">Expires after</span>
          <select name="expiresInHours" defaultValue={SHARE_EXPIRY_HOURS.default} className="rounded border border-zinc-300 px-2 py-1.5">
            {SHARE_EXPIRY_CHOICES.map((choice) => (
              <option key={choice.hours} value={choice.hours}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        {hasSubagents && (
          <label className="flex items-center gap-2 pb-1.5 text-sm">
            <input type="checkbox" name="subagents" /> Include sub-agents
          </label>
        )}
        <button
          type="submit"
          disabled={createShare.isPending}
          className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
        >
          {createShare.isPending ? "Creating…" : "Create link"}
        </button>
      </form>
      {createShare.error && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {createShare.error.message}
        </p>
      )}
      {created && <NewLink link={created} />}
      <section aria-labelledby={linksId} className="space-y-2">
        <h3 id={linksId} className="text-sm font-semibold">
          Links to this thread
        </h3>
        {links.error && (
          <p role="alert" className="text-sm text-red-700">
            {links.error.message}
          </p>
        )}
        {!links.data && links.isFetching && <p className="text-sm text-zinc-500">Loading the links…</p>}
        {links.data && <ShareLinksTable links={links.data} showThread={false} empty="No links to this thread yet." />}
      </section>
    </ModalDialog>
  );
}

/** The link just made, in full: the only time it is shown. */
function NewLink({ link }: Readonly<{ link: CreatedShareLink }>) {
  const inputId = useId();
  return (
    <div role="status" className="space-y-2 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm">
      <label htmlFor={inputId} className="block font-medium">
        Share link (expires {formatDateTime(link.expiresAt)})
      </label>
      <div className="flex items-center gap-2">
        <input
          id={inputId}
          readOnly
          value={link.url}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-2 py-1 font-mono text-xs"
          data-testid="share-url"
        />
        <CopyButton text={link.url} label="Copy link" />
      </div>
      <p>This is the only time the link is shown: copy it now. Revoking it below takes it back at once.</p>
      {onThisComputerOnly(link.url) && (
        <p data-testid="share-local-only">
          This server answers only this computer, so the link opens here and nowhere else. To send the session to someone, use Export: an
          HTML file (encrypted if you like) opens anywhere.
        </p>
      )}
    </div>
  );
}

/** A link on a loopback address (the default server, sign-in off) cannot reach anyone else: say so. */
function onThisComputerOnly(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\./.test(host);
}
