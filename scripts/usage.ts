// npm run usage -- [daily|weekly|monthly|session|blocks|model|provider|project|source] [options]
// Tokens, cost and responses over time in the terminal: the figures GET /api/usage answers, read
// from the database DATABASE_URL names (as the app does: unset, data/threadline.db). A table, or
// with --json exactly the API's JSON (secrets in titles masked, as the API masks them). Bad usage
// exits with 2, a failure with 1.
import { commandLine, ensureDependencies, ensureMigrated, ensurePrismaClient, keepStdoutForData, shownDatabase } from "./lib.mjs";

const USAGE =
  "usage: npm run usage -- [daily|weekly|monthly|session|blocks|model|provider|project|source] [-s <date>] [-u <date>] [-z <zone>] " +
  "[--source <name>] [--project <path>] [--model <name>] [--limit <n>] [-o asc|desc] [--threads] [--token-limit <n|max>] [-b] [-j] (--help explains each)";

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
      --token-limit <n|max> blocks: mark blocks over n tokens (max: the most a completed block used)
  -b, --breakdown           each row's models under it
  -j, --json                the report as GET /api/usage answers it
  -h, --help                this text`;

// Whatever the helpers below print (an install, a migration) goes to stderr: stdout is the report.
keepStdoutForData();
ensureDependencies();

const { values, positionals } = commandLine(
  "usage",
  USAGE,
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
    "token-limit": { type: "string" },
    breakdown: { type: "boolean", short: "b" },
    json: { type: "boolean", short: "j" },
    help: { type: "boolean", short: "h" },
  },
  { positionals: true },
);
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const { parseUsageCommand } = await import("@/lib/validation/usage-command");
const parsed = parseUsageCommand(positionals, values);
if (!parsed.ok) {
  console.error(`usage: ${parsed.error}\n${USAGE}`);
  process.exit(2);
}

ensurePrismaClient();
ensureMigrated();

// `npm run usage | head` closes the pipe early: that is not a failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));

/** Writes all of `text` before exiting: process.exit right after a write may cut a piped stdout short. */
function finish(text: string, code: number): void {
  process.stdout.write(text, () => process.exit(code));
}

try {
  const { usageReport } = await import("@/lib/db/usage/usage-report");
  const { maskDeep } = await import("@/lib/domain/secrets/detect");
  // Masked as the API masks its answers: a title cut from a prompt may hold a token.
  const report = maskDeep(await usageReport(parsed.query));
  if (parsed.json) {
    finish(JSON.stringify(report, null, 2) + "\n", 0);
  } else {
    const { usageTable } = await import("@/lib/domain/usage/usage-table");
    finish(usageTable(report), 0);
  }
} catch (error) {
  console.error(`usage: reading ${shownDatabase()} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
