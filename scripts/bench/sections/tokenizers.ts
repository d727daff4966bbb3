import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { root } from "../../lib.mjs";
import { BENCH_DIR, CONFIG, KEEP_DB, TARGETS } from "../config";
import { assistantContent, chance, toolContent, userContent } from "../generate";
import { Bench, fmtMs, fmtValue, runBenchChild } from "../section";

// ---------------------------------------------------------------------------------------------
// Tokeniser throughput (one fresh child process per tokenizer)
// ---------------------------------------------------------------------------------------------

export const TOKENIZER_CHILD = "--tokenizer-child";

export type TokenizerRun = {
  id: string;
  label: string;
  exact: boolean;
  mode: "whole" | "per piece";
  /** Milliseconds of the first count (loading the vocabulary). */
  loadMs: number;
  /** MB (10^6 bytes of UTF-8) per second of wall-clock time. */
  mbPerSecond: number;
  /**
   * MB per second of the process's CPU time (user + system, all its threads): the one-core figure,
   * less disturbed than wall time when other processes compete for the cores.
   */
  cpuMbPerSecond: number;
  tokens: number;
  bytes: number;
  chars: number;
  calls: number;
};

/**
 * The repository's own code at HEAD (lib, app, components, scripts) as a list of files; read from
 * git so that a working tree mid-edit does not change the text. Empty when git is unavailable.
 */
function repositoryCode(): string[] {
  try {
    const names = execFileSync("git", ["ls-tree", "-r", "--name-only", "HEAD", "lib", "app", "components", "scripts"], {
      cwd: root,
      encoding: "utf8",
    })
      .split("\n")
      .filter((n) => /\.(ts|tsx|mjs|js|css)$/.test(n))
      .sort();
    const all = execFileSync("git", ["archive", "--format=tar", "HEAD", ...names], { cwd: root, maxBuffer: 64 << 20 });
    // Split the tar stream back into files: 512-byte headers, size in octal at 124.
    const files: string[] = [];
    for (let offset = 0; offset + 512 <= all.length;) {
      const header = all.subarray(offset, offset + 512);
      if (header.every((b) => b === 0)) break;
      const size = parseInt(header.subarray(124, 136).toString("ascii").replace(/\0.*$/, "").trim() || "0", 8);
      const type = String.fromCharCode(header[156]!);
      if ((type === "0" || type === "\0") && size > 0) files.push(all.subarray(offset + 512, offset + 512 + size).toString("utf8"));
      offset += 512 + Math.ceil(size / 512) * 512;
    }
    return files;
  } catch {
    return [];
  }
}

/**
 * A few MB of mixed text: conversation turns from the fill's generators (prose, markdown, lists,
 * code blocks, tool logs) with the repository's code files spread through it.
 */
export function tokenizerCorpus(targetBytes: number): { pieces: string[]; turnBytes: number; codeBytes: number } {
  const code = repositoryCode();
  const pieces: string[] = [];
  let turnBytes = 0;
  let codeBytes = 0;
  let previous = "";
  let nextCode = 0;
  while (turnBytes + codeBytes < targetBytes) {
    // About one code file per 5 KB of turns, while the code lasts.
    if (nextCode < code.length && codeBytes * 5 < turnBytes) {
      const file = code[nextCode++]!;
      pieces.push(file);
      codeBytes += Buffer.byteLength(file);
      continue;
    }
    const role =
      previous === "assistant" ? (chance(0.12) ? "tool" : "user") : previous === "user" || previous === "tool" ? "assistant" : "user";
    previous = role;
    const text = role === "user" ? userContent() : role === "assistant" ? assistantContent() : toolContent();
    pieces.push(text);
    turnBytes += Buffer.byteLength(text);
  }
  return { pieces, turnBytes, codeBytes };
}

/** Child process: loads one tokenizer, counts the text once, prints a TokenizerRun as JSON. */
export async function tokenizerChild(): Promise<void> {
  const [id, file, mode] = process.argv.slice(process.argv.indexOf(TOKENIZER_CHILD) + 1);
  const { getTokenizer } = await import("../../../lib/tokenizers/registry");
  const { measureTokenizerThroughput } = await import("../../../lib/tokenizers/throughput");
  const counter = getTokenizer(id!);
  const loadStarted = performance.now();
  counter.count("Load the vocabulary.");
  const loadMs = performance.now() - loadStarted;
  const pieces = JSON.parse(readFileSync(file!, "utf8")) as string[];
  const run: TokenizerRun = {
    id: counter.id,
    label: counter.label,
    exact: counter.exact,
    mode: mode === "per piece" ? "per piece" : "whole",
    loadMs,
    mbPerSecond: 0,
    cpuMbPerSecond: 0,
    tokens: 0,
    bytes: 0,
    chars: 0,
    calls: 0,
  };
  let cpuBefore = process.cpuUsage();
  if (run.mode === "whole") {
    // The text is one string: with any character above U+00FF in it (the repository's code has
    // some), V8 stores it two bytes per character, which makes regex splitting slower.
    const text = pieces.join("\n\n");
    cpuBefore = process.cpuUsage();
    const measured = measureTokenizerThroughput(counter.id, text);
    Object.assign(run, {
      mbPerSecond: measured.mbPerSecond,
      tokens: measured.tokens,
      bytes: Buffer.byteLength(text),
      chars: text.length,
      calls: 1,
    });
  } else {
    // Turn by turn, as the lazy fill counts a chain: one call per piece.
    const started = performance.now();
    let tokens = 0;
    for (const piece of pieces) tokens += counter.count(piece);
    const seconds = (performance.now() - started) / 1000;
    const bytes = pieces.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
    Object.assign(run, {
      mbPerSecond: bytes / 1e6 / seconds,
      tokens,
      bytes,
      chars: pieces.reduce((sum, p) => sum + p.length, 0),
      calls: pieces.length,
    });
  }
  const cpu = process.cpuUsage(cpuBefore);
  run.cpuMbPerSecond = run.bytes / 1e6 / Math.max((cpu.user + cpu.system) / 1e6, 1e-9);
  process.stdout.write(JSON.stringify(run) + "\n");
}

function runTokenizerChild(id: string, file: string, mode: TokenizerRun["mode"]): Promise<TokenizerRun> {
  return runBenchChild<TokenizerRun>([TOKENIZER_CHILD, id, file, mode], `tokenizer child ${id} (${mode})`);
}

export async function sectionTokenizers(bench: Bench): Promise<void> {
  const { listTokenizers } = await import("../../../lib/tokenizers/registry");
  const corpus = tokenizerCorpus(CONFIG.tokenizerTextBytes);
  const file = path.join(BENCH_DIR, "tokenizer-text.json");
  writeFileSync(file, JSON.stringify(corpus.pieces));
  const runs: TokenizerRun[] = [];
  const ids = listTokenizers().map((t) => t.id);
  // Each tokenizer in its own fresh process: the o200k-based estimates share o200k's counter and
  // gpt-tokenizer's merge cache, which would flatter every run after the first.
  try {
    for (const id of ids) runs.push(await runTokenizerChild(id, file, "whole"));
    // o200k turn by turn (what the lazy fill does), again in a fresh process.
    runs.push(await runTokenizerChild("o200k_base", file, "per piece"));
  } finally {
    if (!KEEP_DB) rmSync(file, { force: true });
  }
  for (const run of runs) {
    const isTarget = run.id === "o200k_base";
    bench.record({
      section: "tokenizers",
      name: `tokenise ${run.id}${run.mode === "per piece" ? `, turn by turn (${run.calls} calls)` : ", one string"} (MB/s per core, CPU time)`,
      value: run.cpuMbPerSecond,
      unit: "MB/s",
      target: isTarget ? { metric: "rate", min: TARGETS.o200kMbPerSecond } : undefined,
      note: `${fmtValue(run.mbPerSecond)} MB/s wall clock; ${run.exact ? "exact" : "estimate"}; ${(run.chars / Math.max(1, run.tokens)).toFixed(2)} chars/token; load ${fmtMs(run.loadMs)} ms`,
    });
  }
  bench.facts.tokenizers = {
    text: {
      bytes: corpus.turnBytes + corpus.codeBytes,
      turnBytes: corpus.turnBytes,
      codeBytes: corpus.codeBytes,
      pieces: corpus.pieces.length,
    },
    runs,
  };
}
