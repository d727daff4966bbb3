export default function Loading() {
  return (
    <p className="py-8 text-center text-zinc-500" aria-live="polite" aria-busy="true">
      Searching…
    </p>
  );
}
