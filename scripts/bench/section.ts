// What every section is handed (the Bench context) and how figures are formatted.
import { FillSummary } from "./fill";
import { ResultRow } from "./measure";
import { BenchStore } from "./store";

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------

export type Bench = {
  baseUrl: string;
  /** The database the server runs on (sections may read it in this process too). */
  databaseUrl: string;
  store: BenchStore;
  fill: FillSummary;
  record: (row: ResultRow) => void;
  facts: Record<string, unknown>;
};

export const fmtMs = (ms: number) => (Number.isNaN(ms) ? "-" : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
/** Rates and single figures: whole numbers from 100 up, one decimal below. */
export const fmtValue = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
export const fmtBytes = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`);
