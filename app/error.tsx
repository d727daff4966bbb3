"use client";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert" className="py-16 text-center">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-zinc-600">The server could not show this page. Details are in the server log.</p>
      <button type="button" onClick={reset} className="mt-4 rounded bg-indigo-600 px-3 py-1.5 text-white">
        Try again
      </button>
    </div>
  );
}
