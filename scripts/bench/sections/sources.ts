// Following a folder of agent sessions (lib/sources), in this process on the bench's database.
import { appendFileSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BENCH_DIR, CONFIG, KEEP_DB } from "../config";
import { Bench, fmtBytes } from "../section";

/**
 * A folder of 10,000 (x BENCH_SCALE, at least 200) real-shaped Claude Code sessions followed as
 * THREADLINE_SOURCES would: the first sync (everything imported), the first sync after a restart
 * (a new sync on the same database: every file unchanged), and a sync after one session grew.
 */
export async function sectionSources(bench: Bench): Promise<void> {
  process.env.DATABASE_URL = bench.databaseUrl;
  const { writeRealShapedSessions } = await import("../../../lib/testing/real-shaped-sessions");
  const { createSourceSync } = await import("../../../lib/sources/sync");
  const { importPath } = await import("../../../lib/imports/import-file");
  const dir = path.join(BENCH_DIR, "sources");
  rmSync(dir, { recursive: true, force: true });
  try {
    const count = Math.max(200, Math.round(CONFIG.followedFiles * CONFIG.scale));
    const { files, bytes } = writeRealShapedSessions(dir, count);
    let read = 0;
    const following = () =>
      createSourceSync({ setting: () => ({ origin: "setting", folders: [dir], warnings: [] }), log: () => undefined, importFile: (file) => (read++, importPath(file)) });
    const timed = async (sync: ReturnType<typeof following>) => {
      const started = performance.now();
      const status = await sync.sync();
      return { seconds: (performance.now() - started) / 1000, folder: status.folders[0]! };
    };

    const first = await timed(following());
    if (first.folder.imported !== count) throw new Error(`sources: the first sync imported ${first.folder.imported} of ${count} files`);
    bench.record({ section: "sources", name: `first sync of a folder of ${count} sessions (files/s)`, value: count / first.seconds, unit: "files/s", note: `${fmtBytes(bytes)} in ${first.seconds.toFixed(1)} s` });

    const rssBefore = process.memoryUsage().rss;
    const restarted = following();
    const warm = await timed(restarted);
    if (warm.folder.unchanged !== count) throw new Error(`sources: after a restart ${warm.folder.unchanged} of ${count} files were unchanged`);
    bench.record({
      section: "sources",
      name: `first sync after a restart, ${count} files unchanged (s)`,
      value: warm.seconds,
      unit: "s",
      // The target: 10,000 unchanged files in under 1 s; a smaller folder in its share of it.
      target: { metric: "ceiling", max: Math.min(1, count / 10_000) },
      note: `each file's size and modification time against what the last sync saw (kept in the database); none read. Bench process RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB (+${Math.round((process.memoryUsage().rss - rssBefore) / 1e6)} MB for this sync)`,
    });

    appendFileSync(files[0]!, readFileSync(files[0]!, "utf8").split("\n")[0] + "\n");
    read = 0;
    const grown = await timed(restarted);
    if (read !== 1) throw new Error(`sources: after one file grew the sync read ${read} files`);
    bench.record({ section: "sources", name: `a sync after one of ${count} sessions grew (s)`, value: grown.seconds, unit: "s", note: "that file read again whole; every other one only stat'ed" });
    restarted.close();
  } finally {
    if (!KEEP_DB) rmSync(dir, { recursive: true, force: true });
  }
}
