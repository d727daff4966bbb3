"use client";

import Link from "next/link";

/** A report that could not be read keeps the page's title and offers another try (the server log has the cause). */
export default function InsightsError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Insights</h1>
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900" data-testid="insights-failed">
        <h2 className="font-semibold">The insights could not be read</h2>
        <p className="mt-1">The server could not build this report. Details are in the server log.</p>
        <p className="mt-3 flex flex-wrap items-center gap-3">
          <button type="button" onClick={reset} className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white">
            Try again
          </button>
          <Link href="/insights" className="font-medium text-indigo-700 underline">
            Show the last 30 days
          </Link>
        </p>
      </div>
    </div>
  );
}
