"use client";

import Link from "next/link";
import { useState } from "react";
import type { ShareLinkView } from "@/lib/domain/sharing/share-links";
import { shownTitle } from "@/lib/domain/threads/title";
import { formatDateTime } from "@/lib/format";
import { useRevokeShare } from "@/lib/queries/use-shares";

/**
 * Share links with their Revoke buttons (confirmed first), as the Share dialog (one thread's) and
 * Settings (every thread's, `showThread`) list them. Revoking takes effect at once: the link's
 * page answers 404 from then on.
 */
export function ShareLinksTable({ links, showThread, empty }: Readonly<{ links: ShareLinkView[]; showThread: boolean; empty: string }>) {
  const revokeShare = useRevokeShare();
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);

  async function revoke(link: ShareLinkView) {
    if (!window.confirm(`Revoke this link? Whoever holds it can no longer open ${showThread ? "the thread" : "this thread"}.`)) return;
    setMessage(null);
    try {
      await revokeShare.mutateAsync(link.id);
      setMessage({ text: "Link revoked: it no longer opens anything.", failed: false });
    } catch (error) {
      setMessage({ text: (error as Error).message, failed: true });
    }
  }

  return (
    <div className="space-y-2">
      <p
        role={message?.failed ? "alert" : "status"}
        className={`text-sm empty:hidden ${message?.failed ? "text-red-700" : "text-zinc-700"}`}
      >
        {message?.text}
      </p>
      {links.length === 0 ? (
        <p className="text-sm text-zinc-500">{empty}</p>
      ) : (
        <table className="stack-on-phone w-full text-left text-sm [&_td]:pr-3 [&_th]:pr-3">
          <thead className="text-zinc-500">
            <tr>
              {showThread && <th className="py-1 font-normal">Thread</th>}
              <th className="py-1 font-normal">Created</th>
              <th className="py-1 font-normal">Expires</th>
              <th className="py-1 font-normal">Views</th>
              <th className="py-1 font-normal">By</th>
              <th className="py-1 font-normal">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id} className="border-t border-zinc-100 align-top" data-testid="share-link-row">
                {showThread && (
                  <td className="py-1 break-words max-sm:font-medium">
                    <Link
                      href={`/threads/${link.threadId}`}
                      className="text-indigo-700 underline"
                      title={shownTitle(link.threadTitle).full}
                    >
                      {shownTitle(link.threadTitle).text}
                    </Link>
                    {link.subagents && <span className="ml-1 text-xs text-zinc-500">(with sub-agents)</span>}
                  </td>
                )}
                <td className="py-1 sm:whitespace-nowrap" data-label="Created">
                  <time dateTime={link.createdAt}>{formatDateTime(link.createdAt)}</time>
                </td>
                <td className="py-1 sm:whitespace-nowrap" data-label="Expires">
                  {link.expired ? (
                    <span className="text-amber-800">expired {formatDateTime(link.expiresAt)}</span>
                  ) : (
                    <time dateTime={link.expiresAt}>{formatDateTime(link.expiresAt)}</time>
                  )}
                </td>
                <td className="py-1" data-label="Views">
                  {link.views}
                </td>
                <td className="py-1 break-words" data-label="By">
                  {link.createdBy ?? "—"}
                </td>
                <td className="py-1 text-right">
                  <button
                    type="button"
                    onClick={() => void revoke(link)}
                    disabled={revokeShare.isPending}
                    className="text-red-700 hover:underline disabled:opacity-60"
                    aria-label={`Revoke the link created ${formatDateTime(link.createdAt)}${showThread ? ` to ${shownTitle(link.threadTitle).text}` : ""}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
