/** The report's shape while it is read: the totals, the chart and table, a table below. */
export function UsageSkeleton() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-6" data-testid="usage-loading">
      <p className="sr-only">Adding up the usage…</p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7">
        {Array.from({ length: 7 }, (_, i) => (
          <div
            key={i}
            className={`h-16 animate-pulse rounded-lg border border-zinc-200 bg-white ${i === 0 ? "col-span-2 sm:col-span-1" : ""}`}
          />
        ))}
      </div>
      <div className="h-80 animate-pulse rounded-lg border border-zinc-200 bg-white" />
      <div className="h-48 animate-pulse rounded-lg border border-zinc-200 bg-white" />
    </div>
  );
}
