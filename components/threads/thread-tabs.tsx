"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export function ThreadTabs({ threadId }: { threadId: string }) {
  const pathname = usePathname();
  const tabs = [
    { href: `/threads/${threadId}`, label: "Conversation" },
    { href: `/threads/${threadId}/chain`, label: "Chain" },
    { href: `/threads/${threadId}/lineage`, label: "Lineage" },
    { href: `/threads/${threadId}/budget`, label: "Budget" },
    { href: `/threads/${threadId}/compact`, label: "Compact" },
  ];
  return (
    <nav aria-label="Thread views" className="mb-4 flex gap-1 overflow-x-auto border-b border-zinc-200">
      {tabs.map((tab) => {
        const active = pathname === tab.href;
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${active ? "border-indigo-600 font-medium text-indigo-700" : "border-transparent text-zinc-600 hover:text-zinc-900"}`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
