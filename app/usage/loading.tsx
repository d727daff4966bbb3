export default function LoadingUsage() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Usage</h1>
      <p className="sr-only">Adding up the usage…</p>
      <div className="h-28 animate-pulse rounded-lg border border-zinc-200 bg-white" />
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
