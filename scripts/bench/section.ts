// What every section is handed (the Bench context), how figures are formatted, and how a section
// runs part of itself in a child process.
import { spawn } from "node:child_process";
import path from "node:path";
import { root } from "../lib.mjs";
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
export const fmtBytes = (b: number) =>
  b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`;

/**
 * Runs the bench script again in a child process with `args` (a section's child mode), and
 * answers the JSON object its last line of output holds. `label` names it in the error.
 */
export function runBenchChild<T>(args: string[], label: string, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  return new Promise((resolve, reject) => {
    const script = path.join(root, "scripts", "bench", "index.ts");
    const child = spawn(process.execPath, [...process.execArgv, script, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`${label} exited ${code}: ${err.trim().slice(-800)}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}
