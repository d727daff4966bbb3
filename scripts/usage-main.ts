// npm run usage's work, apart from its process (scripts/usage.ts): the command line in, the report
// out, an exit code back. Tests call it in their own process on their own database.
import type { CliIo } from "./cli-io";
import { readCommandLine, shownDatabase } from "./lib.mjs";

const USAGE =
  "usage: npm run usage -- [daily|weekly|monthly|session|blocks|model|provider|project|source] [-s <date>] [-u <date>] [-z <zone>] " +
  "[--source <name>] [--project <path>] [--model <name>] [--limit <n>] [-o asc|desc] [--threads] [-t <n|max>] [-b] [-j] (--help explains each)";
const HELP = `usage: npm run usage -- [command] [options]

commands (the report's rows; default daily):
  daily      one row per day          weekly    per ISO week (from its Monday)
  monthly    per month                session   per session (a thread with its sub-agents; its title and id)
  blocks     per 5-hour block, as Claude's plans meter use (a block starts at its first response's hour)
  model      per model                provider  per model provider
  project    per project              source    per source (api, import:claude-code, ...)

options:
  -s, --since <date>        first day, YYYY-MM-DD or YYYYMMDD (default: the first day with data)
  -u, --until <date>        last day, included (default: today); without both dates, all time
  -z, --tz <zone>           the time zone days are counted in, an IANA name (default: this machine's);
      --timezone <zone>     the same (ccusage's name)
      --source <name>       only this source          --project <path>  only this project
      --model <name>        only this model           --limit <n>       at most n rows
  -o, --order <asc|desc>    days, weeks, months and blocks: asc oldest first (default), desc newest first;
                            the others: desc costliest first (default), asc cheapest first
      --threads             session: a row per thread, sub-agent threads apart from their session
  -t, --token-limit <n|max> blocks: mark blocks over n tokens (max: the most a completed block used)
  -b, --breakdown           each row's models under it
  -j, --json                the report as GET /api/usage answers it
  -h, --help                this text`;

/**
 * The report for `args`, written to `io`; 0, 1 (reading failed) or 2 (bad usage). `prepare` runs
 * once the command line is good and before the database is read (the entry point's Prisma client
 * and migrations).
 */
export async function usageMain(args: string[], io: CliIo, prepare: () => void = () => {}): Promise<number> {
  const line = readCommandLine(
    {
      since: { type: "string", short: "s" },
      until: { type: "string", short: "u" },
      tz: { type: "string", short: "z" },
      timezone: { type: "string" },
      source: { type: "string" },
      project: { type: "string" },
      model: { type: "string" },
      limit: { type: "string" },
      order: { type: "string", short: "o" },
      threads: { type: "boolean" },
      "token-limit": { type: "string", short: "t" },
      breakdown: { type: "boolean", short: "b" },
      json: { type: "boolean", short: "j" },
      help: { type: "boolean", short: "h" },
    },
    { positionals: true, args },
  );
  if (!line.ok) {
    io.err(`usage: ${line.error}\n${USAGE}`);
    return 2;
  }
  if (line.values.help) {
    io.out(HELP + "\n");
    return 0;
  }
  const { parseUsageCommand } = await import("@/lib/validation/usage-command");
  const parsed = parseUsageCommand(line.positionals, line.values);
  if (!parsed.ok) {
    io.err(`usage: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  prepare();
  try {
    const { usageReport } = await import("@/lib/db/usage/usage-report");
    const { maskDeep } = await import("@/lib/domain/secrets/detect");
    // Masked as the API masks its answers: a title cut from a prompt may hold a token.
    const report = maskDeep(await usageReport(parsed.query, null));
    if (parsed.json) {
      io.out(JSON.stringify(report, null, 2) + "\n");
    } else {
      const { usageTable } = await import("@/lib/domain/usage/usage-table");
      io.out(usageTable(report));
    }
    return 0;
  } catch (error) {
    io.err(`usage: reading ${shownDatabase()} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
