import type { InsightsReport } from "@/lib/domain/insights/insights-report";
import { ActivityHeatmap } from "./activity-heatmap";
import { ModelsAndAgents } from "./models-agents";
import { SessionHealthView } from "./session-health";
import { TeamTables } from "./team-tables";
import { ToolsTable } from "./tools-table";

/**
 * A report's sections in the order people ask: when, with which tools, how sessions went, then
 * models and agents, and with sign-in on people and machines.
 */
export function InsightsView({ report }: Readonly<{ report: InsightsReport }>) {
  return (
    <>
      <ActivityHeatmap activity={report.activity} since={report.since} until={report.until} timeZone={report.tz} />
      <ToolsTable tools={report.tools} filters={report.filters} />
      <SessionHealthView sessions={report.sessions} />
      <ModelsAndAgents models={report.models} agents={report.agents} />
      <TeamTables people={report.people} machines={report.machines} />
    </>
  );
}
