import { activityGrid, busiestHoursSentence, type ActivityGrid } from "@/lib/domain/insights/activity-grid";
import type { ActivityCell } from "@/lib/domain/insights/insights-report";
import { formatDay } from "@/lib/domain/usage/usage-chart";
import { formatInteger } from "@/lib/format";

/** A cell's fill by level (0: no turns); the legend shows the same. */
const SHADES = ["bg-zinc-100", "bg-indigo-200", "bg-indigo-400", "bg-indigo-600", "bg-indigo-900"] as const;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * When the agents worked: a table of days (or weekdays, for a long range) by hours in the report's
 * zone, each cell shaded by its turns and named for screen readers ("Tue 3 Nov, 14:00–15:00: 42
 * turns, 12 responses"). The table is one focusable region that scrolls sideways inside its box on
 * a phone; its cells are not focusable (a screen reader walks the table), and a visible sentence
 * names the busiest hours.
 */
export function ActivityHeatmap({
  activity,
  since,
  until,
  timeZone,
}: Readonly<{ activity: ActivityCell[]; since: string; until: string; timeZone: string }>) {
  const grid = activityGrid(activity, since, until);
  const rowsWord = grid.rows === "day" ? "day" : "weekday (the range's days summed)";
  const label = `Turns by ${rowsWord} and hour in ${timeZone}, ${formatDay(since, true)} to ${formatDay(until, true)}`;
  return (
    <section aria-labelledby="activity-title" className="min-w-0 rounded-lg border border-zinc-200 bg-white p-3 sm:p-4">
      <h2 id="activity-title" className="text-lg font-semibold tracking-tight">
        When agents worked
      </h2>
      <p className="mt-1 text-sm text-zinc-700" data-testid="busiest-hours">
        {busiestHoursSentence(grid)}
      </p>
      <div
        role="region"
        aria-label={label}
        tabIndex={0}
        className="relative mt-3 overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <table
          className="w-full min-w-[34rem] border-separate border-spacing-0.5 text-xs"
          data-testid="activity-heatmap"
          data-rows={grid.rows}
        >
          <caption className="sr-only">{label}</caption>
          <thead>
            <tr>
              <th scope="col" className="w-16 text-left font-medium text-zinc-600">
                <span className="sr-only">{grid.rows === "day" ? "Day" : "Weekday"}</span>
              </th>
              {HOURS.map((hour) => (
                <th key={hour} scope="col" className="text-center font-normal text-zinc-600 tabular-nums">
                  {hour}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.grid.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="pr-2 text-left font-normal whitespace-nowrap text-zinc-700">
                  {row.label}
                </th>
                {row.cells.map((cell) => (
                  <td
                    key={cell.hour}
                    title={cell.name}
                    className={`h-5 min-w-4 rounded-sm ${SHADES[cell.level]}`}
                    data-testid="activity-cell"
                    data-row={row.key}
                    data-hour={cell.hour}
                    data-turns={cell.turns}
                    data-responses={cell.responses}
                  >
                    <span className="sr-only">{cell.name}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Legend grid={grid} />
    </section>
  );
}

function Legend({ grid }: Readonly<{ grid: ActivityGrid }>) {
  return (
    <ul
      className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600"
      aria-label="Shades"
      data-testid="activity-legend"
    >
      <li className="flex items-center gap-1">
        <span aria-hidden="true" className={`inline-block size-3 rounded-sm border border-zinc-200 ${SHADES[0]}`} />
        no turns
      </li>
      {grid.legend.map((step) => (
        <li key={step.level} className="flex items-center gap-1">
          <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${SHADES[step.level]}`} />
          {step.from === step.to ? formatInteger(step.from) : `${formatInteger(step.from)}–${formatInteger(step.to)}`} turns
        </li>
      ))}
    </ul>
  );
}
