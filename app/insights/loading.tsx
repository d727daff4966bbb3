export default function LoadingInsights() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Insights</h1>
      <p className="sr-only">Reading the insights…</p>
      <div className="h-28 animate-pulse rounded-lg border border-zinc-200 bg-white" />
      <div className="h-72 animate-pulse rounded-lg border border-zinc-200 bg-white" />
      <div className="h-48 animate-pulse rounded-lg border border-zinc-200 bg-white" />
      <div className="grid gap-2 sm:grid-cols-5">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="h-16 animate-pulse rounded-lg border border-zinc-200 bg-white" />
        ))}
      </div>
    </div>
  );
}
