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
} as const satisfies Record<string, UsageGroup>;
type UsageCommand = keyof typeof USAGE_COMMANDS;

/** The options as node:util's parseArgs reads them (strings and flags). */
export type UsageCommandOptions = {
  since?: string;
  until?: string;
  tz?: string;
  source?: string;
  project?: string;
  model?: string;
  limit?: string;
  breakdown?: boolean;
  json?: boolean;
};

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
 * ("--since: must be a date as YYYY-MM-DD"). Without a command: daily.
 */
export function parseUsageCommand(
  positionals: readonly string[],
  options: UsageCommandOptions,
  now: () => Date = () => new Date(),
): UsageCommandLine {
  if (positionals.length > 1) return { ok: false, error: `one command at a time, got ${positionals.length}: ${positionals.join(" ")}` };
  const command = positionals[0] ?? "daily";
  if (!isCommand(command)) return { ok: false, error: `unknown command "${command}": use one of ${commandNames()}` };
  const raw: Record<string, string> = { groupBy: USAGE_COMMANDS[command] };
  for (const name of ["tz", "source", "project", "model", "limit"] as const) {
    const value = options[name];
    if (value !== undefined) raw[name] = value;
  }
  const since = apiDate(options.since);
  const until = apiDate(options.until);
  if (since !== undefined) raw.since = since;
  if (until !== undefined) raw.until = until;
  if (options.breakdown) raw.breakdown = "model";
  const parsed = usageQuerySchema(now).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "");
    const name = field === "groupBy" ? `command ${command}` : field === "breakdown" ? "--breakdown" : field ? `--${field}` : "options";
    return { ok: false, error: `${name}: ${issue.message}` };
  }
  return { ok: true, command, query: parsed.data, json: options.json === true };
}
