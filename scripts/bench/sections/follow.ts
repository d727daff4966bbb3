// A live Claude Code session followed while it grows (lib/imports/claude-code-session.ts), in this
// process on the bench's database.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { BENCH_DIR, KEEP_DB } from "../config";
import { measure } from "../measure";
import { Bench, fmtBytes } from "../section";

/** The session's size: a long working session (real ones reach tens of MB with their tool results). */
const SESSION_BYTES = 20_000_000;
const APPENDS = 30;

/**
 * A 20 MB generated session imported as a followed file, then one exchange (four lines) appended
 * and imported again, APPENDS times: each import reads only what was appended. For comparison the
 * same appends imported as `npm run import` does, reading the grown file whole.
 */
export async function sectionFollow(bench: Bench): Promise<void> {
  process.env.DATABASE_URL = bench.databaseUrl;
  const { writeClaudeCodeSession } = await import("../../../lib/testing/claude-code-session");
  const { importPath } = await import("../../../lib/imports/import-file");
  const { resumeCounts } = await import("../../../lib/imports/claude-code-session");
  const dir = path.join(BENCH_DIR, "follow");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const file = path.join(dir, "3f9c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b.jsonl");
    const generated = writeClaudeCodeSession(file, SESSION_BYTES, 17);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    // The last exchange's four lines again, with new uuids chained onto the session's end: a
    // prompt, the answer's blocks, a tool result, a closing answer.
    let parent = (JSON.parse(lines.at(-1)!) as { uuid: string }).uuid;
    const exchange = lines.slice(-6);
    let appended = 0;
    const appendExchange = () => {
      // Fresh message and request ids too: usage counts once per response.
      const ids = new Map<string, string>();
      const fresh = (id: string) =>
        ids.get(id) ?? (ids.set(id, `${id.slice(0, 4)}${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`), ids.get(id)!);
      const text = exchange
        .map((line) => {
          const entry = JSON.parse(line) as Record<string, unknown>;
          const uuid = crypto.randomUUID();
          const next = { ...entry, parentUuid: parent, uuid, timestamp: new Date().toISOString() };
          parent = uuid;
          return JSON.stringify(next).replace(/\b(?:msg|req)_[0-9a-f]{24}\b/g, fresh);
        })
        .join("\n");
      appendFileSync(file, `${text}\n`);
      appended += Buffer.byteLength(text) + 1;
    };
    const importFollowed = async (follow: boolean) => {
      const report = await importPath(file, file, undefined, { follow });
      if (report.status !== "imported" || report.turnsAdded === 0)
        throw new Error(`follow: an appended exchange gave ${report.status}, ${report.turnsAdded} turns`);
    };

    await importFollowed(true);
    const before = resumeCounts();
    const resumed = await measure(
      "follow: resumed",
      async () => {
        appendExchange();
        await importFollowed(true);
      },
      APPENDS,
      { warmup: 0 },
    );
    const after = resumeCounts();
    if (after.resumed - before.resumed !== APPENDS)
      throw new Error(`follow: ${after.resumed - before.resumed} of ${APPENDS} imports went on from where the last stopped`);
    bench.record({
      section: "follow",
      name: `an exchange appended to a followed ${fmtBytes(generated.bytes)} session, imported`,
      stats: resumed,
      target: { metric: "p95", maxMs: 100 },
      note: `${fmtBytes((after.bytesRead - before.bytesRead) / APPENDS)} read per import (what was appended), not the file`,
    });

    const whole = await measure(
      "follow: whole",
      async () => {
        appendExchange();
        await importFollowed(false);
      },
      5,
      { warmup: 0 },
    );
    bench.record({
      section: "follow",
      name: "the same, read whole (npm run import, or a file not followed)",
      stats: whole,
      note: `${fmtBytes(generated.bytes + appended)} read and parsed each time`,
    });
  } finally {
    if (!KEEP_DB) rmSync(dir, { recursive: true, force: true });
  }
}
