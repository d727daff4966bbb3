/**
 * What the followed-sources tests share: whether this run is on PostgreSQL (where nothing is
 * followed unless THREADLINE_SOURCES says so), and a sync whose importer records every file it reads
 * (the only way a file gets hashed) and what each import reported.
 */
import type { FileImportReport } from "@/lib/db/imports/imports";
import { importPath } from "@/lib/imports/import-file";
import { createSourceSync } from "@/lib/sources/sync";

export const ON_POSTGRES = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? "");

/** `follow`: import as the server's own sync does (a live session's state kept between imports). */
export function countingSync({ follow = false } = {}) {
  const read: string[] = [];
  const reports = new Map<string, FileImportReport>();
  const sync = createSourceSync({
    importFile: async (file, within) => {
      read.push(file);
      const report = await importPath(file, file, undefined, follow ? { follow: true, within } : { within });
      reports.set(file, report);
      return report;
    },
    log: (line) => {
      if (process.env.DEBUG_SYNC) console.log(line);
    },
  });
  return { sync, read, reports };
}
