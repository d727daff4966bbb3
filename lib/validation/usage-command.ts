import { type UsageGroup, type UsageQuery } from "@/lib/domain/usage/usage-report";
import { usageQuerySchema } from "./usage";

/** `npm run usage -- <command>`: the commands (ccusage's names where it has them) and the group each reports by. */
const USAGE_COMMANDS = {
  daily: "day",
  weekly: "week",
  monthly: "month",
  session: "thread",
  model: "model",
  provider: "provider",
  project: "project",
  source: "source",
  blocks: "block",
} as const satisfies Record<string, UsageGroup>;
type UsageCommand = keyof typeof USAGE_COMMANDS;

/** The options as node:util's parseArgs reads them (strings and flags), by their long names. */
export type UsageCommandOptions = {
  since?: string;
  until?: string;
  tz?: string;
  /** ccusage's name for --tz. */
  timezone?: string;
  source?: string;
  project?: string;
  model?: string;
  limit?: string;
  order?: string;
  threads?: boolean;
  "token-limit"?: string;
  breakdown?: boolean;
  json?: boolean;
};

/** The query parameters whose option has another name. */
const OPTION_NAMES: Record<string, string> = { breakdown: "--breakdown", perThread: "--threads", tokenLimit: "--token-limit" };

export type UsageCommandLine = { ok: true; command: UsageCommand; query: UsageQuery; json: boolean } | { ok: false; error: string };

const commandNames = () => Object.keys(USAGE_COMMANDS).join(", ");

function isCommand(name: string): name is UsageCommand {
  return Object.hasOwn(USAGE_COMMANDS, name);
}

/** ccusage's compact dates (20260131) as the API's (2026-01-31); anything else as given, for the schema to judge. */
function apiDate(value: string | undefined): string | undefined {
  return value !== undefined && /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
}

/**
 * The command line's positionals and options as GET /api/usage's query, checked by the same
 * schema (usageQuerySchema), so both refuse the same things; an error names the option
 * ("--since: must be a date as YYYY-MM-DD"). Without a command: daily; without dates: all time
 * (ccusage's default; the API's is the last 30 days).
 */
export function parseUsageCommand(
  positionals: readonly string[],
  options: UsageCommandOptions,
  now: () => Date = () => new Date(),
): UsageCommandLine {
  if (positionals.length > 1) return { ok: false, error: `one command at a time, got ${positionals.length}: ${positionals.join(" ")}` };
  const command = positionals[0] ?? "daily";
  if (!isCommand(command)) return { ok: false, error: `unknown command "${command}": use one of ${commandNames()}` };
  if (options.tz !== undefined && options.timezone !== undefined && options.tz !== options.timezone)
    return { ok: false, error: "--tz and --timezone name the same option: give one" };
  const raw: Record<string, string> = { groupBy: USAGE_COMMANDS[command] };
  for (const name of ["source", "project", "model", "limit", "order"] as const) {
    const value = options[name];
    if (value !== undefined) raw[name] = value;
  }
  const tz = options.tz ?? options.timezone;
  if (tz !== undefined) raw.tz = tz;
  if (options.threads) raw.perThread = "true";
  if (options["token-limit"] !== undefined) raw.tokenLimit = options["token-limit"];
  const since = apiDate(options.since);
  const until = apiDate(options.until);
  if (since !== undefined) raw.since = since;
  if (until !== undefined) raw.until = until;
  if (options.breakdown) raw.breakdown = "model";
  const parsed = usageQuerySchema(now, "all-time").safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "");
    const name = field === "groupBy" ? `command ${command}` : (OPTION_NAMES[field] ?? (field ? `--${field}` : "options"));
    return { ok: false, error: `${name}: ${issue.message}` };
  }
  return { ok: true, command, query: parsed.data, json: options.json === true };
}
