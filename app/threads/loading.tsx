export default function LoadingThreads() {
  return (
    <div aria-busy="true" aria-live="polite">
      <p className="sr-only">Loading threads…</p>
      <div className="mb-4 h-8 w-40 animate-pulse rounded bg-zinc-200" />
      <div className="mb-4 h-10 animate-pulse rounded bg-zinc-200" />
      <div className="space-y-px overflow-hidden rounded-lg border border-zinc-200">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="h-16 animate-pulse bg-white" />
        ))}
      </div>
    </div>
  );
}
