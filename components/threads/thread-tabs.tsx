"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export function ThreadTabs({ threadId }: { threadId: string }) {
  const pathname = usePathname();
  const current = useRef<HTMLAnchorElement>(null);
  // On a phone the tabs scroll sideways in their own row: the current one is brought into it.
  useEffect(() => {
    const tab = current.current;
    const row = tab?.parentElement;
    if (!tab || !row) return;
    const left = tab.offsetLeft - row.offsetLeft;
    if (left < row.scrollLeft || left + tab.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = left + tab.offsetWidth - row.clientWidth;
  }, [pathname]);
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
            ref={active ? current : undefined}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px shrink-0 border-b-2 px-3 outline-offset-[-2px] py-2 text-sm whitespace-nowrap ${active ? "border-indigo-600 font-medium text-indigo-700" : "border-transparent text-zinc-600 hover:text-zinc-900"}`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
