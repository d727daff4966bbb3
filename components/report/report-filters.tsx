import Link from "next/link";
import type { ReactNode } from "react";
import { sourceLabel } from "@/lib/domain/display/source";
import { reportHref, type ReportPageParams, type ReportPath } from "@/lib/queries/report-url";
import { BrowserZoneLink } from "./browser-zone-link";

/** A range one link away; without `since` it starts at the data's first day (/insights: "All days"). */
export type QuickRange = { label: string; since?: string; until: string };

type Props = {
  /** The page the form loads, and its name ("Usage"), which names the form. */
  path: ReportPath;
  name: string;
  /** The parameters as the URL gives them. */
  params: ReportPageParams;
  /** The range and zone the report covers (none when the URL was refused). */
  range: { since: string; until: string; timeZone: string } | null;
  /** The range as asked, its ends as the page fills them but not cut to the data's days: which quick range is current. */
  asked: { since?: string; until: string } | null;
  /** The zone days are counted in: the URL's tz, else the server's. */
  zone: string;
  /** The zone days are counted in without tz=…. */
  serverZone: string;
  facets: { models: string[]; projects: string[]; sources: string[] };
  quickRanges: QuickRange[];
};

const input = "rounded border border-zinc-300 bg-white px-2 py-1.5 text-sm";

/**
 * A report page's range and filters (/usage, /insights) as a GET form under its API's parameter
 * names: submitting it loads /usage?since=…&until=…&model=…, with or without JavaScript, and the
 * address is the state (a reload or a shared link shows the same report). Empty fields are sent
 * empty and mean "any".
 */
export function ReportFilters({ path, name, params, range, asked, zone, serverZone, facets, quickRanges }: Readonly<Props>) {
  const id = path.slice(1);
  const filters = { model: params.model, project: params.project, source: params.source, tz: params.tz, view: params.view };
  return (
    <div className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3 sm:p-4">
      <form method="get" action={path} className="flex flex-wrap items-end gap-3" aria-label={`${name} range and filters`}>
        <Field id={`${id}-since`} label="From">
          <input id={`${id}-since`} type="date" name="since" defaultValue={range?.since ?? dateOrEmpty(params.since)} className={input} />
        </Field>
        <Field id={`${id}-until`} label="To">
          <input id={`${id}-until`} type="date" name="until" defaultValue={range?.until ?? dateOrEmpty(params.until)} className={input} />
        </Field>
        <Field id={`${id}-tz`} label="Time zone">
          <input
            id={`${id}-tz`}
            type="text"
            name="tz"
            defaultValue={params.tz ?? ""}
            placeholder={serverZone}
            aria-describedby={`${id}-tz-hint`}
            className={`${input} w-44 max-w-full`}
          />
        </Field>
        <Select idPrefix={id} name="model" label="Model" allLabel="All models" options={facets.models} value={params.model} />
        {(facets.projects.length > 0 || params.project) && (
          <Select idPrefix={id} name="project" label="Project" allLabel="All projects" options={facets.projects} value={params.project} />
        )}
        {(facets.sources.length > 1 || params.source) && (
          <Select
            idPrefix={id}
            name="source"
            label="Agent"
            allLabel="All agents"
            options={facets.sources}
            value={params.source}
            labelOf={sourceLabel}
          />
        )}
        {/* The view is chosen under the form; a new range or filter keeps it. */}
        {range && params.view && <input type="hidden" name="view" value={params.view} />}
        <button type="submit" className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white">
          Show
        </button>
      </form>
      <p id={`${id}-tz-hint`} className="text-xs text-zinc-600">
        Days run midnight to midnight in {zone}
        {zone === serverZone && !params.tz ? " (the server's time zone)" : ""}.{" "}
        <BrowserZoneLink path={path} params={params} reportZone={zone} />
      </p>
      <nav aria-label="Quick ranges" className="flex flex-wrap items-center gap-2 text-sm">
        {quickRanges.map((quick) => {
          const current = asked !== null && asked.since === quick.since && asked.until === quick.until;
          return (
            <Link
              key={quick.label}
              href={reportHref(path, { ...filters, since: quick.since, until: quick.until })}
              aria-current={current ? "page" : undefined}
              className={`rounded-full border px-3 py-1 ${current ? "border-indigo-600 bg-indigo-50 font-medium text-indigo-800" : "border-zinc-300 text-zinc-700 hover:bg-zinc-50"}`}
            >
              {quick.label}
            </Link>
          );
        })}
        {(params.model || params.project || params.source) && (
          <Link
            href={reportHref(path, { since: range?.since, until: range?.until, tz: params.tz, view: params.view })}
            className="ml-1 text-indigo-700 underline"
          >
            Clear filters
          </Link>
        )}
      </nav>
    </div>
  );
}

function Select({
  idPrefix,
  name,
  label,
  allLabel,
  options,
  value,
  labelOf,
}: Readonly<{
  idPrefix: string;
  name: string;
  label: string;
  allLabel: string;
  options: string[];
  value?: string;
  labelOf?: (option: string) => string;
}>) {
  // A value from the URL that no thread has (yet) stays selectable, so the form shows what is asked.
  const all = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <Field id={`${idPrefix}-${name}`} label={label}>
      <select id={`${idPrefix}-${name}`} name={name} defaultValue={value ?? ""} className={`${input} max-w-56 py-2`}>
        <option value="">{allLabel}</option>
        {all.map((option) => (
          <option key={option} value={option}>
            {labelOf ? labelOf(option) : option}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A control under its label: a label of its own (not wrapping the control, whose value would join its name). */
function Field({ id, label, children }: Readonly<{ id: string; label: string; children: ReactNode }>) {
  return (
    <div className="flex min-w-0 flex-col text-sm">
      <label htmlFor={id} className="mb-1 text-zinc-600">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A date input's value: what the URL gave when it is a date, else empty (the browser would drop it, with a warning). */
function dateOrEmpty(value: string | undefined): string {
  return value &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
    ? value
    : "";
}
