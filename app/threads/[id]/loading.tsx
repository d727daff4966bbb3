export default function LoadingThread() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-3">
      <p className="sr-only">Loading the conversation…</p>
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className="h-28 animate-pulse rounded-lg border border-zinc-200 bg-white" />
      ))}
    </div>
  );
}
