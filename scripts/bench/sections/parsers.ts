// The transcript parsers alone (no database, no server): each format's real fixtures from
// fixtures/real, detected and parsed in this process, as MB/s of source text.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { root } from "../../lib.mjs";
import { Bench, fmtBytes } from "../section";

const FORMATS = ["opencode", "pi", "copilot", "aider"] as const;
/** Source text parsed per format and measurement: the fixtures over and over, until this much. */
const BYTES_PER_RUN = 20e6;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

export async function sectionParsers(bench: Bench): Promise<void> {
  const { detectFormat, parseDetected } = await import("../../../lib/importers");
  const shared = path.join(root, "fixtures/real");
  for (const format of FORMATS) {
    const dir = path.join(shared, format);
    if (!existsSync(dir)) continue;
    const files = filesUnder(dir).map((file) => ({ name: path.relative(dir, file), text: readFileSync(file, "utf8") }));
    const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    const rounds = Math.max(1, Math.ceil(BYTES_PER_RUN / bytes));
    for (const file of files) await parseDetected(file.name, detectFormat(file.name, file.text)); // warm up
    const started = performance.now();
    let turns = 0;
    for (let i = 0; i < rounds; i++) {
      for (const file of files)
        turns += (await parseDetected(file.name, detectFormat(file.name, file.text))).threads.reduce((n, t) => n + t.turns.length, 0);
    }
    const seconds = (performance.now() - started) / 1000;
    bench.record({
      section: "parsers",
      name: `${format}: detect and parse its real fixtures (MB/s)`,
      value: (bytes * rounds) / 1e6 / seconds,
      unit: "MB/s",
      note: `${files.length} file(s), ${fmtBytes(bytes)}, ${rounds} rounds, ${Math.round(turns / rounds)} turns a round, ${((seconds * 1000) / rounds).toFixed(2)} ms a round`,
    });
  }
}
