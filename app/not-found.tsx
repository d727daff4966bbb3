import Link from "next/link";

export default function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-zinc-600">There is no thread or page at this address.</p>
      <Link href="/threads" className="mt-4 inline-block text-indigo-700 underline">
        Back to the threads
      </Link>
    </div>
  );
}
