import Link from "next/link";
import type { UsageView } from "@/lib/domain/usage/usage-views";
import type { ReportPageParams } from "@/lib/queries/report-url";
import { usageHref } from "@/lib/queries/usage-url";

const VIEW_LABELS: Record<UsageView, string> = { day: "Day", week: "Week", month: "Month", block: "5-hour blocks" };

/**
 * The views of the same range as a segmented control: links that keep the range and filters and
 * change `view=`, the current one marked, so each view has its address and works without JavaScript.
 */
export function UsageViewNav({ params, view }: Readonly<{ params: ReportPageParams; view: UsageView }>) {
  return (
    <nav aria-label="View of the range">
      <ul className="inline-flex flex-wrap rounded-lg border border-zinc-300 bg-white p-0.5 text-sm">
        {(Object.keys(VIEW_LABELS) as UsageView[]).map((each) => (
          <li key={each}>
            <Link
              href={usageHref({ ...params, view: each === "day" ? undefined : each })}
              aria-current={each === view ? "page" : undefined}
              className={`block rounded-md px-3 py-1 ${each === view ? "bg-indigo-600 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
            >
              {VIEW_LABELS[each]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
