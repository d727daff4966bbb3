// `threadline push` / `npm run push --`: sends this laptop's agent sessions to a Threadline
// server, and keeps doing so as they grow (issue 39). Bundled into build/workers/push.cjs
// (scripts/build-workers.mjs) and started by scripts/push.mjs.
import os from "node:os";
import { machineNameOf, MACHINE_NAME } from "@/lib/domain/push/push-files";
import { parseSourcesSetting } from "@/lib/domain/sources/sources";
import { PushError, PushServer } from "./http";
import { pushOnce, type PushMemory, type PushReport } from "./push";

const USAGE = `usage: threadline push --server URL --token TOKEN [--machine NAME] [--once] [--no-redact] [--dry-run]

Sends the sessions in your agents' folders (THREADLINE_SOURCES, or the agents' own folders under
your home folder, as the server would follow them) to a Threadline server, and keeps sending what
they gain until stopped. Each file is sent from where the server's copy ends; a push stopped at any
moment and started again sends the rest, never a turn twice.

  --server URL    the Threadline server, such as https://threadline.example.com
  --token TOKEN   an API token made in that server's Settings (or THREADLINE_TOKEN)
  --machine NAME  this laptop's name there (default: its host name, ${machineNameOf(os.hostname())})
  --once          one pass: report what was sent, unchanged and failed, and exit (1 if anything failed)
  --no-redact     send secrets as they are (by default each is replaced by a redaction marker here,
                  before it is sent, so the server never holds it)
  --dry-run       say what would be sent, and send nothing
  --interval S    while following, look for changes every S seconds (default 5)`;

export type PushArgs = {
  server: URL;
  token: string;
  machine: string;
  once: boolean;
  redact: boolean;
  dryRun: boolean;
  intervalMs: number;
};

/** The arguments, or the reason they are wrong (the usage follows it). */
export function parsePushArgs(
  args: string[],
  env: Record<string, string | undefined>,
  hostName: string,
): PushArgs | { error: string } | "help" {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (["--once", "--no-redact", "--dry-run"].includes(name)) {
      if (inline !== undefined) return { error: `${name} takes no value` };
      flags.add(name);
    } else if (["--server", "--token", "--machine", "--interval"].includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined || value.startsWith("--")) return { error: `${name} needs a value` };
      values.set(name, value);
    } else return { error: `unknown argument ${JSON.stringify(arg)}` };
  }
  const serverText = values.get("--server") ?? env.THREADLINE_SERVER;
  if (!serverText) return { error: "--server is missing: the address of the Threadline server to push to" };
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    return { error: `--server ${JSON.stringify(serverText)} is not an address such as https://threadline.example.com` };
  }
  if (server.protocol !== "http:" && server.protocol !== "https:") return { error: "--server must be an http:// or https:// address" };
  const token = values.get("--token") ?? env.THREADLINE_TOKEN;
  if (!token) return { error: "--token is missing: make an API token in the server's Settings (or set THREADLINE_TOKEN)" };
  const machine = values.get("--machine") ?? machineNameOf(hostName);
  if (!MACHINE_NAME.test(machine))
    return {
      error: `--machine ${JSON.stringify(machine)}: 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit`,
    };
  const interval = Number(values.get("--interval") ?? "5");
  if (!Number.isFinite(interval) || interval < 1 || interval > 3600) return { error: "--interval must be 1 to 3600 seconds" };
  return {
    server,
    token,
    machine,
    once: flags.has("--once"),
    redact: !flags.has("--no-redact"),
    dryRun: flags.has("--dry-run"),
    intervalMs: interval * 1000,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The report a pass prints: one line of counts, then a line per failure and per file left out. */
export function describeReport(report: PushReport, args: Pick<PushArgs, "dryRun" | "machine" | "redact">, server: string): string[] {
  const verb = args.dryRun ? "would send" : "sent";
  const lines = [
    `${verb} ${plural(report.sent.length, "file")} (${megabytes(report.bytesSent)}${args.redact ? ", secrets redacted" : ", secrets NOT redacted"}), ` +
      `${plural(report.unchanged, "file")} unchanged, ${plural(report.failed.length, "failed", "failed")}: ${server} as ${args.machine}`,
  ];
  for (const failure of report.failed) lines.push(`  failed: ${failure.path}: ${failure.reason}`);
  for (const file of report.notImported) lines.push(`  not imported (unchanged since): ${file.path}: ${file.reason}`);
  for (const entry of report.leftOut) lines.push(`  left out: ${entry.path}: ${entry.reason}`);
  return lines;
}

/** Runs the command; the exit code. */
export async function main(args: string[]): Promise<number> {
  const parsed = parsePushArgs(args, process.env, os.hostname());
  if (parsed === "help") {
    console.log(USAGE);
    return 0;
  }
  if ("error" in parsed) {
    console.error(`threadline push: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  const home = os.homedir();
  const sources = parseSourcesSetting(process.env.THREADLINE_SOURCES, { home, postgres: false });
  for (const warning of sources.warnings) console.error(`threadline push: ${warning}`);
  const say = (line: string) => console.log(`threadline push: ${line}`);
  const server = new PushServer(parsed.server, parsed.token, undefined, say);
  const options = { server, machine: parsed.machine, home, folders: sources.folders, redact: parsed.redact, dryRun: parsed.dryRun };
  if (parsed.once || parsed.dryRun) {
    try {
      const report = await pushOnce(options);
      for (const line of describeReport(report, parsed, server.address)) say(line);
      return report.failed.length > 0 ? 1 : 0;
    } catch (error) {
      if (!(error instanceof PushError)) throw error;
      say(error.message);
      return 1;
    }
  }
  return follow(options, parsed, say);
}

/** Keeps pushing until stopped: a pass every interval, reported when it sent or failed something. */
async function follow(options: Parameters<typeof pushOnce>[0], args: PushArgs, say: (line: string) => void): Promise<number> {
  const memory: PushMemory = new Map();
  say(`following ${options.folders.join(", ")}; pushing to ${options.server.address} as ${args.machine} (Ctrl-C stops)`);
  for (let pass = 0; ; pass++) {
    try {
      const report = await pushOnce(options, memory);
      // The first pass says everything; later ones only what they sent or could not.
      const shown = pass === 0 ? report : { ...report, leftOut: [], notImported: [] };
      if (pass === 0 || report.sent.length > 0 || report.failed.length > 0)
        for (const line of describeReport(shown, args, options.server.address)) say(line);
    } catch (error) {
      if (!(error instanceof PushError)) throw error;
      say(error.message);
      if (error.refused) return 1;
      say(`trying again in ${args.intervalMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, args.intervalMs));
  }
}
