import Link from "next/link";
import { headers } from "next/headers";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ThreadHeader } from "@/components/threads/thread-header";
import { ThreadTabs } from "@/components/threads/thread-tabs";
import { compactionLinks } from "@/lib/db/threads/compactions";
import { forkLinks } from "@/lib/db/threads/forks";
import { previewModelFor } from "@/lib/models/catalog";
import { sessionFiguresOf } from "@/lib/db/usage/session-figures";
import { getThreadLinks } from "@/lib/db/threads/threads";
import { threadFindingCount, threadSendsSecrets } from "@/lib/db/secrets/secret-findings";
import { mayAdminister } from "@/lib/auth/principal";
import { readerFrom } from "@/lib/auth/reader";
import { threadAccessView } from "@/lib/auth/thread-access";
import { SecretRevealProvider } from "@/components/secrets/secret-mask";
import { findThreadOnce, listCustomModelsOnce } from "./thread-data";

export default async function ThreadLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  const reader = await readerFrom(await headers());
  const [[links, compactions, forks, custom, secretCount], sendsSecrets, admin, figures, access] = await Promise.all([
    Promise.all([
      getThreadLinks(thread, reader),
      compactionLinks(thread.id, reader),
      forkLinks(thread.id, reader),
      listCustomModelsOnce(),
      threadFindingCount(thread.id),
    ]).then(maskDeep),
    threadSendsSecrets(thread.id),
    headers().then(mayAdminister),
    sessionFiguresOf([thread.id]).then((all) => all.get(thread.id)),
    threadAccessView(reader, thread),
  ]);
  const promptModel = previewModelFor(thread.modelsUsed, custom);
  const parent = thread.parentThreadId
    ? { id: thread.parentThreadId, title: links.parent?.title ?? null, missing: links.parent === null }
    : null;
  // Masks are reveal buttons for admins (for everyone with sign-in off); the endpoint checks again.
  return (
    <SecretRevealProvider allowed={admin}>
      <div>
        <nav aria-label="Breadcrumb" className="mb-2 text-sm text-zinc-500">
          <Link href="/threads" className="hover:underline">
            Threads
          </Link>{" "}
          /
        </nav>
        <ThreadHeader
          thread={thread}
          parent={parent}
          childThreads={links.children}
          compactions={compactions}
          forks={forks}
          promptModel={promptModel}
          secretCount={secretCount}
          secrets={{ sendToModels: sendsSecrets, canChange: admin }}
          figures={figures}
          access={access}
        />
        <ThreadTabs threadId={thread.id} />
        {children}
      </div>
    </SecretRevealProvider>
  );
}
