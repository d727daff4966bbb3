// npm run import -- <paths...>
// Imports agent transcripts into the Threadline database: files, or folders walked recursively
// (~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp, ~/.local/share/opencode, ~/.pi/agent/sessions,
// ~/.copilot/session-state, a repository with Aider's .aider.chat.history.md, a ChatGPT export's conversations.json,
// PAL or pydantic-ai dumps). Re-running is incremental: unchanged files are skipped, grown files
// add their new turns. Options: --format=<format> to force one; --quiet for the summary only;
// --scan-secrets to run the scan for secrets here, alongside the import, until it has caught up
// (otherwise the server's scan finds the new turns' secrets when it next runs).
// A folder named here is the boundary, as a followed folder is: nothing reached through a symbolic
// link out of it is opened (it is listed as left unopened); a file named directly is read.
import { realpath, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { commandLine, ensureDependencies, ensureMigrated, ensurePrismaClient } from "./lib.mjs";

ensureDependencies();
ensurePrismaClient();
ensureMigrated();

const { FORMAT_LABELS, isImportFormat, supportedFormatsText } = await import("@/lib/importers");
const { transcriptFiles } = await import("@/lib/imports/transcript-files");
const { RefusedPathError } = await import("@/lib/files/inside");
const { LINK_OUTSIDE_REASON } = await import("@/lib/domain/paths");
const { importPath } = await import("@/lib/imports/import-file");
const { startBulkImports } = await import("@/lib/db/imports/import-batch");
const { countBacklog } = await import("@/lib/db/threads/count-backlog");

const USAGE = "usage: npm run import -- <file or folder>... [--format=<format>] [--quiet] [--stats] [--scan-secrets]";
const { values, positionals } = commandLine(
  "import",
  USAGE,
  { format: { type: "string" }, quiet: { type: "boolean" }, stats: { type: "boolean" }, "scan-secrets": { type: "boolean" } },
  { positionals: true },
);
const quiet = values.quiet === true;
// Loaded before the clock starts, as the importers are; its database client starts on the clock.
const scan = values["scan-secrets"] === true ? await import("@/lib/secrets/scan") : null;
/** --stats: a last line of JSON with bytes, seconds and peak RSS, for the benchmark. */
const stats = values.stats === true;
const started = performance.now();
let bytesRead = 0;
const formatArg = values.format;
if (formatArg !== undefined && !isImportFormat(formatArg)) {
  console.error(`--format: unknown format "${formatArg}". Supported: ${supportedFormatsText()}.`);
  process.exit(2);
}
const targets = positionals.map((a) => (a.startsWith("~/") ? path.join(os.homedir(), a.slice(2)) : a));
if (targets.length === 0) {
  console.error(USAGE);
  console.error(`formats: ${supportedFormatsText()}`);
  process.exit(2);
}

// The scan follows each file's commit (threadsWritten) as the server's does, and is awaited at the end.
scan?.startSecretScan();

// Files share transactions, and each file's last token counts are written after its commit, while the next files import.
const bulk = startBulkImports();
const totals = { files: 0, imported: 0, unchanged: 0, failed: 0, threadsCreated: 0, threadsUpdated: 0, turns: 0, skipped: 0, unopened: 0 };
for (const target of targets) {
  const files: { path: string; size: number }[] = [];
  let within: string | undefined;
  const unopened = (file: string, reason: string) => {
    totals.unopened += 1;
    console.log(
      `${"unopened".padEnd(10)} ${file}: ${reason === LINK_OUTSIDE_REASON ? `a symbolic link to a place outside ${target}` : reason}`,
    );
  };
  try {
    within = (await stat(target)).isDirectory() ? await realpath(target) : undefined;
    for await (const file of transcriptFiles(target, { within, onSkip: (skip) => unopened(skip.path, skip.reason) })) files.push(file);
  } catch (error) {
    console.error(`${target}: ${error instanceof Error ? error.message : String(error)}`);
    totals.failed += 1;
    continue;
  }
  for (const { path: file, size } of files) {
    let report;
    try {
      report = await bulk.run(() => importPath(file, file, formatArg as never, { within }));
    } catch (error) {
      // Swapped for a link out of the folder (or a pipe) since the walk: left unopened.
      if (!(error instanceof RefusedPathError)) throw error;
      unopened(file, error.reason);
      continue;
    }
    totals.files += 1;
    bytesRead += size;
    totals[report.status] += 1;
    totals.threadsCreated += report.threads.created;
    totals.threadsUpdated += report.threads.updated;
    totals.turns += report.turnsAdded;
    totals.skipped += report.skipped.length;
    if (report.status === "failed") console.error(`failed     ${file}: ${report.error}`);
    else if (!quiet) {
      const what =
        report.status === "unchanged"
          ? ""
          : ` ${report.format ? FORMAT_LABELS[report.format] : ""}: ${report.threads.created} new, ${report.threads.updated} updated thread(s), ${report.turnsAdded} turn(s)`;
      console.log(`${report.status.padEnd(10)} ${file}${what}`);
      for (const s of report.skipped.slice(0, 5))
        console.log(`           skipped ${s.line !== undefined ? `line ${s.line}` : (s.path ?? "")}: ${s.reason}`);
      if (report.skipped.length > 5) console.log(`           ... and ${report.skipped.length - 5} more skipped entries`);
      for (const t of report.threadResults) {
        if (t.change === "unchanged" || t.change === "created") continue;
        const what =
          t.change === "appended"
            ? `${t.turnsAdded} turn(s) appended`
            : t.change === "rewritten"
              ? `rewritten from turn ${t.fromTurn} (${t.turnsRemoved} replaced by ${t.turnsAdded})`
              : `truncated: ${t.turnsRemoved} turn(s) from turn ${t.fromTurn} removed`;
        console.log(`           thread ${t.id}: ${what}`);
      }
      for (const w of report.warnings) console.log(`           warning: ${w}`);
    }
  }
}
await bulk.finish();
// The run stored its turns uncounted: counted now, so budget previews find them counted.
await countBacklog();
let scanSeconds: number | null = null;
if (scan) {
  const scanFrom = performance.now();
  await scan.scanForSecrets();
  scanSeconds = (performance.now() - scanFrom) / 1000;
  const status = await scan.secretScanStatus();
  if (status.error) {
    console.error(`[threadline] the scan for secrets failed: ${status.error}`);
    totals.failed += 1;
  } else
    console.log(
      `[threadline] scanned for secrets: turn ${status.scannedSeq} of ${status.lastSeq}, ${status.findings} finding(s) in the database`,
    );
}
console.log(
  `[threadline] ${totals.files} file(s): ${totals.imported} imported, ${totals.unchanged} unchanged, ${totals.failed} failed; ` +
    `threads ${totals.threadsCreated} new, ${totals.threadsUpdated} updated; ${totals.turns} turns added; ${totals.skipped} entries skipped` +
    (totals.unopened > 0 ? `; ${totals.unopened} left unopened (links out of the folder, pipes, sockets or devices)` : ""),
);
if (stats) {
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({ stats: { ...totals, bytes: bytesRead, seconds, scanSeconds, maxRssBytes: process.resourceUsage().maxRSS * 1024 } }),
  );
}
process.exit(totals.failed > 0 ? 1 : 0);
