import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { connection } from "next/server";
import { RedactButton } from "@/components/secrets/redact-button";
import { mayAdminister } from "@/lib/auth/principal";
import { readerFrom } from "@/lib/auth/reader";
import { listSecretFindings } from "@/lib/db/secrets/secret-findings";
import { maskSecrets, secretLabel } from "@/lib/domain/secrets/detect";
import { displayTitle } from "@/lib/domain/threads/title";
import { formatInteger } from "@/lib/format";
import { secretScanStatus } from "@/lib/secrets/scan";

export const metadata: Metadata = { title: "Secrets" };

/** Secrets found across threads (never their values): the first 500, with redaction in place. */
export default async function SecretsPage() {
  await connection();
  const reader = await readerFrom(await headers());
  const [{ findings, total }, scan, mayRedact] = await Promise.all([
    listSecretFindings({ limit: 500 }, reader),
    secretScanStatus(),
    headers().then(mayAdminister),
  ]);
  const threads = [...new Set(findings.map((f) => f.threadId))];
  return (
    <div className="max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Secrets</h1>
      <p className="text-zinc-600">
        Secrets found in stored turns: {total} in {threads.length} thread(s)
        {total > findings.length ? ` (the first ${findings.length} listed)` : ""}. Scanned through turn {formatInteger(scan.scannedSeq)} of{" "}
        {formatInteger(scan.lastSeq)}
        {scan.running ? " (scanning)" : scan.waitingForSync ? " (the scan goes on once the sync in progress has ended)" : ""}. Pages show
        each one masked; {mayRedact ? "redacting replaces it in the stored text for good." : "an admin may redact them in place."}
      </p>
      {threads.map((threadId) => {
        const rows = findings.filter((f) => f.threadId === threadId);
        return (
          <section key={threadId} className="rounded-lg border border-zinc-200 bg-white p-3" data-testid="secret-thread">
            <div className="mb-2 flex items-center gap-3">
              <Link href={`/threads/${threadId}`} className="min-w-0 flex-1 truncate font-medium hover:underline">
                {maskSecrets(displayTitle(rows[0]!.threadTitle))}
              </Link>
              {mayRedact && <RedactButton threadId={threadId} label="Redact all in place" />}
            </div>
            <table className="w-full text-sm">
              <tbody>
                {rows.map((f) => (
                  <tr key={f.id} className="border-t border-zinc-100" data-testid="secret-finding">
                    <td className="py-1">
                      <Link href={`/threads/${threadId}#turn-${f.turnIndex + 1}`} className="hover:underline">
                        Turn {f.turnIndex + 1}
                      </Link>
                    </td>
                    <td>{secretLabel(f.kind)}</td>
                    <td className="font-mono text-xs">…{f.fingerprint}</td>
                    <td className="text-xs text-zinc-500">{f.field}</td>
                    <td className="text-right">
                      {mayRedact && (
                        <RedactButton threadId={threadId} turnId={f.turnId} fingerprint={f.fingerprint} label="Redact in place" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        );
      })}
    </div>
  );
}
