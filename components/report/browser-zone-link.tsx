"use client";

import Link from "next/link";
import { useSyncExternalStore } from "react";
import { reportHref, type ReportPageParams, type ReportPath } from "@/lib/queries/report-url";

const subscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || null;

/**
 * "Days in this browser's time zone (Europe/Berlin)": offered when the browser's zone is not the
 * report's. Days are the server's unless the URL says tz=…, so a shared link shows the same days
 * to everyone; this link puts the reader's own zone in the URL. Nothing without JavaScript.
 */
export function BrowserZoneLink({
  path,
  params,
  reportZone,
}: Readonly<{ path: ReportPath; params: ReportPageParams; reportZone: string }>) {
  const zone = useSyncExternalStore(subscribe, browserZone, () => null);
  if (!zone || zone === reportZone) return null;
  return (
    <Link href={reportHref(path, { ...params, tz: zone })} className="text-indigo-700 underline" data-testid="browser-zone">
      Use this browser&apos;s time zone ({zone})
    </Link>
  );
}
