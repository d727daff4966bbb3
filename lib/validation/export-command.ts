/**
 * `npm run export -- <threadId> [options]`: the command line as the export route's own options,
 * with each error naming the option. The defaults are the API's: json lossless, html and md redacted.
 */
import { normalizeId } from "@/lib/domain/ids";

type ExportFormat = "json" | "html" | "md";

/** The options as node:util's parseArgs reads them (strings and flags). */
export type ExportCommandOptions = {
  format?: string;
  redact?: boolean;
  "no-redact"?: boolean;
  subagents?: boolean;
  chain?: boolean;
  "password-file"?: string;
  out?: string;
};

export type ExportCommand = {
  threadId: string;
  format: ExportFormat;
  redact: boolean;
  subagents: boolean;
  chain: boolean;
  passwordFile: string | null;
  out: string | null;
};

export type ExportCommandLine = ({ ok: true } & ExportCommand) | { ok: false; error: string };

const FORMATS: readonly string[] = ["json", "html", "md"];

export function parseExportCommand(positionals: readonly string[], options: ExportCommandOptions): ExportCommandLine {
  if (positionals.length === 0) return { ok: false, error: "<threadId>: give the id of the thread to export" };
  if (positionals.length > 1)
    return { ok: false, error: `<threadId>: one thread at a time, got ${positionals.length}: ${positionals.join(" ")}` };
  const threadId = normalizeId(positionals[0]!);
  if (!threadId) return { ok: false, error: `<threadId>: "${positionals[0]}" is not a thread id (thread ids are UUIDs)` };
  const format = options.format ?? "json";
  if (!FORMATS.includes(format)) return { ok: false, error: `--format: must be json, html or md, got "${format}"` };
  if (options.redact && options["no-redact"]) return { ok: false, error: "--redact and --no-redact: give one or the other" };
  const passwordFile = options["password-file"] ?? null;
  if (passwordFile !== null && format !== "html")
    return { ok: false, error: `--password-file: only --format html is encrypted, not ${format}` };
  if (options.subagents && format === "json") return { ok: false, error: "--subagents: applies to --format html and md only" };
  const redact = options.redact ? true : options["no-redact"] ? false : format !== "json";
  return {
    ok: true,
    threadId,
    format: format as ExportFormat,
    redact,
    subagents: options.subagents ?? false,
    chain: options.chain ?? false,
    passwordFile,
    out: options.out ?? null,
  };
}
