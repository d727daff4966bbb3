"use client";

/**
 * "Download CSV" for one of the page's tables: the CSV was written by the server from the rows the
 * table shows (lib/domain/usage/usage-csv.ts), and is saved from memory as a file; no request.
 */
export function CsvDownload({ csv, filename, table }: Readonly<{ csv: string; filename: string; table: string }>) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    link.click();
    // After this task: the click has handed the URL to the download by then.
    setTimeout(() => URL.revokeObjectURL(url));
  };
  return (
    <button
      type="button"
      onClick={download}
      className="rounded border border-zinc-300 bg-white px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-50"
      data-testid="csv-download"
    >
      Download CSV<span className="sr-only"> of {table}</span>
    </button>
  );
}
