import { CostCell } from "@/components/usage/usage-tables";
import { machineLabel } from "@/lib/domain/display/source";
import type { MachineInsight, PersonInsight, TeamFigures } from "@/lib/domain/insights/insights-report";
import { formatInteger } from "@/lib/format";
import { FigureTable, type Column } from "./models-agents";

const TEAM_COLUMNS: Column<TeamFigures>[] = [
  { label: "Sessions", testId: "sessions", cell: (row) => formatInteger(row.sessions) },
  { label: "Active hours", testId: "active-hours", cell: (row) => formatInteger(row.activeHours) },
  { label: "Turns", testId: "turns", cell: (row) => formatInteger(row.turns) },
  { label: "Responses", testId: "responses", cell: (row) => formatInteger(row.responses) },
  { label: "Cost", testId: "cost", cell: (row) => <CostCell row={row} /> },
  { label: "Tool calls", testId: "tool-calls", cell: (row) => formatInteger(row.toolCalls) },
  { label: "Tool errors", testId: "tool-errors", cell: (row) => formatInteger(row.toolErrors) },
];

/**
 * With sign-in on, the report's figures per person (as /usage's By person names and orders them)
 * and, once a machine has pushed threads, per machine. Names only: a thread is never named here,
 * so an admin's team figures show nobody's private titles.
 */
export function TeamTables({ people, machines }: Readonly<{ people?: PersonInsight[]; machines?: MachineInsight[] }>) {
  if (!people) return null;
  return (
    <div className="grid min-w-0 gap-6">
      <FigureTable
        title="By person"
        keyLabel="Person"
        testId="by-person"
        rows={people}
        rowKey={(row) => row.id}
        name={(row) => <span className="break-words">{row.name}</span>}
        columns={TEAM_COLUMNS}
        note="Each person's threads, private ones included; what nobody owns counts as the first admin's. Active hours: the hours with any of their turns (two people's may overlap)."
      />
      {machines?.some((row) => row.machine !== "") && (
        <FigureTable
          title="By machine"
          keyLabel="Machine"
          testId="by-machine"
          rows={machines}
          rowKey={(row) => row.machine}
          name={(row) => <span className="break-all">{machineLabel(row.machine)}</span>}
          columns={TEAM_COLUMNS}
          note="The machine each thread was pushed from."
        />
      )}
    </div>
  );
}
