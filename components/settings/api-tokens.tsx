"use client";

import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import type { ApiToken } from "@/lib/queries/api-tokens";
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from "@/lib/queries/use-api-tokens";

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

/**
 * Settings -> API tokens, through the REST API (GET/POST /api/tokens, DELETE /api/tokens/:id): a
 * new token is shown once, here, and never again.
 */
export function ApiTokens({ showOwner }: Readonly<{ showOwner: boolean }>) {
  const list = useApiTokens();
  const createToken = useCreateApiToken();
  const revokeToken = useRevokeApiToken();
  const tokens = list.data ?? null;
  const [created, setCreated] = useState<{ name: string; token: string; push: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const pending = createToken.isPending;

  async function create(form: FormData) {
    setMessage(null);
    const name = String(form.get("name") ?? "");
    const date = String(form.get("expiresAt") ?? "");
    try {
      // The end of the chosen day, in the browser's time zone.
      const token = await createToken.mutateAsync({ name, expiresAt: date ? new Date(`${date}T23:59:59`).toISOString() : null });
      // The address this browser reaches the server at: the one a laptop on the same network pushes to.
      setCreated({ name, token, push: `npm run push -- --server ${window.location.origin} --token ${token}` });
    } catch (error) {
      setMessage((error as Error).message);
    }
  }

  async function revoke(token: ApiToken) {
    setMessage(null);
    try {
      await revokeToken.mutateAsync(token);
      if (created?.name === token.name) setCreated(null);
      setMessage(`Revoked ${token.name}.`);
    } catch (error) {
      setMessage((error as Error).message);
    }
  }

  return (
    <div className="mt-3 space-y-3">
      <form action={create} className="flex flex-wrap items-end gap-3" aria-label="Create an API token">
        <label className="flex flex-col text-sm">
          <span className="mb-1 text-zinc-600">Name</span>
          <input
            name="name"
            required
            maxLength={100}
            placeholder="e.g. claude-code on my laptop"
            className="rounded border border-zinc-300 px-3 py-2"
          />
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 text-zinc-600">Expires (optional)</span>
          <input name="expiresAt" type="date" className="rounded border border-zinc-300 px-3 py-2" />
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-indigo-600 px-3 py-2 text-sm font-medium text-white disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create token"}
        </button>
      </form>
      {created && (
        <div role="status" className="rounded border border-emerald-300 bg-emerald-50 p-3 text-sm">
          <p>
            The token <strong>{created.name}</strong>. Copy it now: it is not shown again.
          </p>
          <p className="mt-1 flex items-center gap-2">
            <code data-testid="new-token" className="break-all">
              {created.token}
            </code>
            <CopyButton text={created.token} />
          </p>
          <p className="mt-2">To send a laptop&apos;s agent sessions here as yours, run this there, in a clone of Threadline:</p>
          <p className="mt-1 flex items-center gap-2">
            <code data-testid="push-command" className="break-all">
              {created.push}
            </code>
            <CopyButton text={created.push} label="Copy command" />
          </p>
        </div>
      )}
      {list.error && (
        <p role="alert" className="text-sm text-red-700">
          {list.error.message}
        </p>
      )}
      {message && (
        <p role="alert" className="text-sm text-zinc-700">
          {message}
        </p>
      )}
      {tokens && tokens.length === 0 && <p className="text-sm text-zinc-500">No API tokens yet.</p>}
      {tokens && tokens.length > 0 && (
        <table className="stack-on-phone w-full text-left text-sm">
          <thead className="text-zinc-500">
            <tr>
              <th className="py-1 font-normal">Name</th>
              {showOwner && <th className="py-1 font-normal">Person</th>}
              <th className="py-1 font-normal">Starts</th>
              <th className="py-1 font-normal">Created</th>
              <th className="py-1 font-normal">Expires</th>
              <th className="py-1 font-normal">Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} className="border-t border-zinc-100" data-testid="api-token-row">
                <td className="py-1 break-words max-sm:font-medium">{token.name}</td>
                {showOwner && (
                  <td className="py-1 break-all" data-label="Person">
                    {token.userEmail}
                  </td>
                )}
                <td className="py-1 font-mono" data-label="Starts">
                  {token.prefix}…
                </td>
                <td className="py-1" data-label="Created">
                  {when(token.createdAt, "")}
                </td>
                <td className="py-1" data-label="Expires">
                  {when(token.expiresAt, "never")}
                </td>
                <td className="py-1" data-label="Last used">
                  {when(token.lastUsedAt, "never")}
                </td>
                <td className="py-1 text-right">
                  <button
                    type="button"
                    onClick={() => void revoke(token)}
                    className="text-red-700 hover:underline"
                    aria-label={`Revoke ${token.name}`}
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
