"use client";

import Link from "next/link";
import { useState } from "react";
import { sourceLabel } from "@/lib/domain/display/source";
import type { InsightsFilters, ToolInsight } from "@/lib/domain/insights/insights-report";
import { threadFiltersQuery } from "@/lib/queries/url-state";
import { formatInteger, formatPercent } from "@/lib/format";

type SortKey = "calls" | "errorRate";

const rate = (figures: { calls: number; errors: number }) => (figures.calls > 0 ? figures.errors / figures.calls : 0);
const SORTS: Record<SortKey, (a: ToolInsight, b: ToolInsight) => number> = {
  calls: (a, b) => b.calls - a.calls || a.name.localeCompare(b.name),
  errorRate: (a, b) => rate(b) - rate(a) || b.errors - a.errors || a.name.localeCompare(b.name),
};

/** The thread list filtered by a tool, keeping the page's filters (the thread list has the same three); `source` narrows it to an agent. */
function listHref(tool: string, filters: InsightsFilters, source = filters.source): string {
  return `/threads${threadFiltersQuery({ tool, source, project: filters.project, model: filters.model })}`;
}

/**
 * The range's tools: calls, errors and error rate; a tool one agent called names it, one several
 * called has a row per agent below it. Sorted by calls or by error rate (the column headers are
 * buttons; aria-sort says which). A tool's name and an agent's row link to the thread list
 * filtered by that tool (and agent).
 */
export function ToolsTable({ tools, filters }: Readonly<{ tools: ToolInsight[]; filters: InsightsFilters }>) {
  const [sort, setSort] = useState<SortKey>("calls");
  const sorted = [...tools].sort(SORTS[sort]);
  const header = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort === key ? "descending" : "none"} className="px-3 py-2 text-right font-medium whitespace-nowrap">
      <button
        type="button"
        onClick={() => setSort(key)}
        className="font-medium text-indigo-700 hover:underline"
        data-testid={`sort-${key}`}
      >
        {label}
        <span aria-hidden="true">{sort === key ? " ↓" : ""}</span>
      </button>
    </th>
  );
  return (
    <section aria-labelledby="tools-title" className="min-w-0">
      <h2 id="tools-title" className="mb-2 text-lg font-semibold tracking-tight">
        Tools
      </h2>
      {tools.length === 0 ? (
        <p className="text-sm text-zinc-600">No tool calls in this range.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-sm" data-testid="tools">
            <thead className="bg-zinc-50 text-xs text-zinc-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  Tool / agent
                </th>
                {header("calls", "Calls")}
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Errors
                </th>
                {header("errorRate", "Error rate")}
              </tr>
            </thead>
            {sorted.map((tool) => {
              // One agent is named in the tool's row; several each get a row below it.
              const only = tool.agents.length === 1 ? tool.agents[0]!.source : undefined;
              return (
                <tbody key={tool.name} className="border-t border-zinc-200" data-testid="tools-tool" data-key={tool.name}>
                  <Row name={tool.name} agent={only} figures={tool} href={listHref(tool.name, filters, only)} testId="tools-row" />
                  {!only &&
                    [...tool.agents]
                      .sort((a, b) => b.calls - a.calls)
                      .map((agent) => (
                        <Row
                          key={agent.source}
                          name={tool.name}
                          agent={agent.source}
                          nested
                          figures={agent}
                          href={listHref(tool.name, filters, agent.source)}
                          testId="tools-agent-row"
                        />
                      ))}
                </tbody>
              );
            })}
          </table>
        </div>
      )}
      <p className="mt-1 text-xs text-zinc-600">
        Each call once (by its call id); an error is a call whose result its agent marked failed. A link lists the threads that called the
        tool, of any date.
      </p>
    </section>
  );
}

/** A tool's row, or (nested) one agent's calls of it; its link lists the threads that called the tool (by that agent). */
function Row({
  name,
  agent,
  nested = false,
  figures,
  href,
  testId,
}: Readonly<{ name: string; agent?: string; nested?: boolean; figures: { calls: number; errors: number }; href: string; testId: string }>) {
  return (
    <tr data-testid={testId} data-key={nested ? agent : name} className={nested ? "text-zinc-700" : ""}>
      <th scope="row" className={`max-w-72 min-w-40 py-1.5 pr-3 text-left font-normal break-words ${nested ? "pl-7 text-xs" : "pl-3"}`}>
        {nested ? (
          <Link href={href} className="text-indigo-700 hover:underline" aria-label={`${sourceLabel(agent!)} calls of ${name}`}>
            {sourceLabel(agent!)}
          </Link>
        ) : (
          <>
            <Link href={href} className="font-mono font-medium break-all text-indigo-700 hover:underline">
              {name}
            </Link>
            {agent && <span className="ml-2 text-xs text-zinc-600">{sourceLabel(agent)}</span>}
          </>
        )}
      </th>
      <td className="px-3 py-1.5 text-right font-mono whitespace-nowrap" data-testid={`${testId}-calls`}>
        {formatInteger(figures.calls)}
      </td>
      <td
        className={`px-3 py-1.5 text-right font-mono whitespace-nowrap ${figures.errors > 0 ? "text-red-700" : ""}`}
        data-testid={`${testId}-errors`}
      >
        {formatInteger(figures.errors)}
      </td>
      <td className="px-3 py-1.5 text-right font-mono whitespace-nowrap" data-testid={`${testId}-rate`}>
        {formatPercent(figures.errors, figures.calls)}
      </td>
    </tr>
  );
}
