import type { ReactNode } from "react";
import { CostCell } from "@/components/usage/usage-tables";
import { sourceLabel } from "@/lib/domain/display/source";
import type { AgentInsight, ModelInsight } from "@/lib/domain/insights/insights-report";
import { modelLabel } from "@/lib/domain/usage/usage-chart";
import { formatInteger } from "@/lib/format";

export type Column<Row> = { label: string; testId: string; cell: (row: Row) => ReactNode };

const MODEL_COLUMNS: Column<ModelInsight>[] = [
  { label: "Responses", testId: "responses", cell: (row) => formatInteger(row.responses) },
  { label: "Cost", testId: "cost", cell: (row) => <CostCell row={row} /> },
  { label: "Input", testId: "input", cell: (row) => formatInteger(row.inputTokens) },
  { label: "Output", testId: "output", cell: (row) => formatInteger(row.outputTokens) },
  { label: "Cache read", testId: "cache-read", cell: (row) => formatInteger(row.cacheReadTokens) },
  { label: "Cache write", testId: "cache-write", cell: (row) => formatInteger(row.cacheWriteTokens) },
];

const AGENT_COLUMNS: Column<AgentInsight>[] = [
  { label: "Sessions", testId: "sessions", cell: (row) => formatInteger(row.sessions) },
  { label: "Turns", testId: "turns", cell: (row) => formatInteger(row.turns) },
  { label: "Responses", testId: "responses", cell: (row) => formatInteger(row.responses) },
  { label: "Cost", testId: "cost", cell: (row) => <CostCell row={row} /> },
  { label: "Tool calls", testId: "tool-calls", cell: (row) => formatInteger(row.toolCalls) },
  { label: "Tool errors", testId: "tool-errors", cell: (row) => formatInteger(row.toolErrors) },
];

/** The models and the agents of the range, one table under the other (side by side, seven columns each would not fit). */
export function ModelsAndAgents({ models, agents }: Readonly<{ models: ModelInsight[]; agents: AgentInsight[] }>) {
  return (
    <div className="grid min-w-0 gap-6">
      <FigureTable
        title="Models"
        keyLabel="Model"
        testId="models"
        rows={models}
        rowKey={(row) => row.model}
        name={(row) => <span className="break-all">{modelLabel(row.model)}</span>}
        columns={MODEL_COLUMNS}
      />
      <FigureTable
        title="Agents"
        keyLabel="Agent"
        testId="agents"
        rows={agents}
        rowKey={(row) => row.source}
        name={(row) => sourceLabel(row.source)}
        columns={AGENT_COLUMNS}
      />
    </div>
  );
}

/** A table of figures per model, agent, person or machine: a row per key, its name first, then a column per figure. */
export function FigureTable<Row>({
  title,
  keyLabel,
  testId,
  rows,
  rowKey,
  name,
  columns,
  note,
}: Readonly<{
  title: string;
  keyLabel: string;
  testId: string;
  rows: Row[];
  rowKey: (row: Row) => string;
  name: (row: Row) => ReactNode;
  columns: Column<Row>[];
  /** A sentence under the title, on what the rows count. */
  note?: ReactNode;
}>) {
  return (
    <section aria-labelledby={`${testId}-title`} className="min-w-0">
      <h2 id={`${testId}-title`} className="mb-2 text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {note && <p className="mb-2 text-xs text-zinc-600">{note}</p>}
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600">None in this range.</p>
      ) : (
        // Focusable: on a phone the table scrolls sideways, and it holds no link to reach it by.
        <div
          role="region"
          aria-labelledby={`${testId}-title`}
          tabIndex={0}
          className="overflow-x-auto rounded-lg border border-zinc-200 bg-white"
        >
          <table className="w-full text-sm" data-testid={testId}>
            <thead className="bg-zinc-50 text-xs text-zinc-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {keyLabel}
                </th>
                {columns.map((column) => (
                  <th key={column.label} scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {rows.map((row) => (
                <tr key={rowKey(row)} data-testid={`${testId}-row`} data-key={rowKey(row)}>
                  <th scope="row" className="max-w-72 min-w-48 px-3 py-2 text-left font-normal break-words">
                    {name(row)}
                  </th>
                  {columns.map((column) => (
                    <td
                      key={column.label}
                      className="px-3 py-2 text-right font-mono whitespace-nowrap"
                      data-testid={`${testId}-${column.testId}`}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
