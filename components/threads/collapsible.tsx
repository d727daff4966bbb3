"use client";

import { useId, useState, type ReactNode } from "react";

/** Long content starts collapsed to a fixed height with a button to show all of it. */
export function Collapsible({ collapsedByDefault, summary, children }: { collapsedByDefault: boolean; summary: string; children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(collapsedByDefault);
  const id = useId();
  if (!collapsedByDefault) return <>{children}</>;
  return (
    <div>
      <div id={id} className={collapsed ? "relative max-h-64 overflow-hidden" : undefined}>
        {children}
        {collapsed && <div className="pointer-events-none absolute inset-x-0 bottom-0 h-16 bg-gradient-to-t from-white" />}
      </div>
      <button
        type="button"
        aria-expanded={!collapsed}
        aria-controls={id}
        onClick={() => setCollapsed(!collapsed)}
        className="mt-2 text-sm font-medium text-indigo-700 hover:underline"
      >
        {collapsed ? `Show all (${summary})` : "Collapse"}
      </button>
    </div>
  );
}
