import type { Metadata } from "next";
import { ImportForm } from "@/components/import/import-form";

export const metadata: Metadata = { title: "Import" };

export default function ImportPage() {
  return (
    <div className="max-w-3xl">
      <h1 className="mb-2 text-2xl font-semibold tracking-tight">Import</h1>
      <p className="mb-4 text-zinc-600">
        Upload Threadline JSON exports (<code className="rounded bg-zinc-100 px-1">threadline/v1</code>). Each file is imported whole or
        not at all; errors name the field that is wrong.
      </p>
      <ImportForm />
    </div>
  );
}
