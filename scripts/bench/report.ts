import os from "node:os";
import { FillSummary } from "./fill";
import { ResultRow, meets } from "./measure";
import { fmtMs, fmtValue } from "./section";
import { TokenizerRun } from "./sections/tokenizers";

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

export function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export const chainTurns = (fill: FillSummary) => fill.chains.reduce((sum, c) => sum + c.turns, 0);

export type TokenizerFacts = { text: { bytes: number; turnBytes: number; codeBytes: number; pieces: number }; runs: TokenizerRun[] };

export function printTokenizerTable(facts: TokenizerFacts | undefined): void {
  if (!facts) return;
  const { text, runs } = facts;
  console.log("");
  console.log(
    `Tokenisers: ${(text.bytes / 1e6).toFixed(2)} MB of mixed text (${(text.turnBytes / 1e6).toFixed(2)} MB generated turns, ${(text.codeBytes / 1e6).toFixed(2)} MB of the repository's code), one fresh process per row, one core`,
  );
  const header = ["tokenizer", "kind", "MB/s (CPU)", "MB/s (wall)", "tokens", "chars/token", "load ms"];
  const lines = runs.map((r) => [
    r.mode === "whole" ? `${r.id}, one string` : `${r.id}, turn by turn (${r.calls} calls)`,
    r.exact ? "exact" : "estimate",
    r.cpuMbPerSecond.toFixed(2),
    r.mbPerSecond.toFixed(2),
    String(r.tokens),
    (r.chars / Math.max(1, r.tokens)).toFixed(2),
    fmtMs(r.loadMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}

export function printTable(rows: ResultRow[]): void {
  const header = ["measurement", "n", "p50 ms", "p95 ms", "target", "", "notes"];
  const lines = rows.map((row) => {
    const ok = meets(row);
    const t = row.target;
    const target = !t ? "" : t.metric === "rate" ? `>= ${t.min}` : t.metric === "ceiling" ? `< ${t.max}` : `${t.metric} < ${t.maxMs} ms`;
    const figures = row.value !== undefined ? `${fmtValue(row.value)} ${row.unit ?? ""}`.trim() : "";
    return [
      row.name,
      row.stats ? String(row.stats.count) : "",
      row.stats ? fmtMs(row.stats.p50) : "",
      row.stats ? fmtMs(row.stats.p95) : "",
      target,
      ok === null ? "" : ok ? "OK" : "MISS",
      [figures, row.note].filter(Boolean).join("; "),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 || i === 2 || i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}
