// npm run export's work, apart from its process (scripts/export.ts): the command line in, the file
// out, an exit code back. Tests call it in their own process on their own database.
import { readFileSync, writeFileSync } from "node:fs";
import type { ExportCommand } from "@/lib/validation/export-command";
import type { CliIo } from "./cli-io";
import { readCommandLine, shownDatabase } from "./lib.mjs";

const USAGE =
  "usage: npm run export -- <threadId> [--format html|md|json] [--redact|--no-redact] [--subagents] [--chain] [--password-file <file>] [--out <file>] (--help explains each)";

const HELP = `usage: npm run export -- <threadId> [options]

options:
  --format <f>            json (default): the lossless threadline/v1 document, which imports back
                          html: one self-contained page to read;  md: Markdown
  --redact, --no-redact   replace secrets by [REDACTED:<kind>:<fingerprint>], or keep them as stored
                          (default: json keeps them, html and md redact them)
  --subagents             html and md: each sub-agent's turns under the tool call that started it
  --chain                 the whole chain of threads ending at this one, oldest first
  --password-file <file>  html only: encrypt the page with the password in this file (its first
                          line; at least 8 characters); it opens in a browser with that password
  --out <file>            write the file here (default: stdout)
  --help                  this text`;

/**
 * The export for `args`, written to `io` or --out; 0, 1 (an unknown thread, reading failed) or 2
 * (bad usage). `prepare` runs once the command line is good and before the database is read (the
 * entry point's Prisma client and migrations).
 */
export async function exportMain(args: string[], io: CliIo, prepare: () => void = () => {}): Promise<number> {
  const line = readCommandLine(
    {
      format: { type: "string" },
      redact: { type: "boolean" },
      "no-redact": { type: "boolean" },
      subagents: { type: "boolean" },
      chain: { type: "boolean" },
      "password-file": { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    { positionals: true, args },
  );
  if (!line.ok) {
    io.err(`export: ${line.error}\n${USAGE}`);
    return 2;
  }
  if (line.values.help) {
    io.out(HELP + "\n");
    return 0;
  }
  const { parseExportCommand } = await import("@/lib/validation/export-command");
  const parsed = parseExportCommand(line.positionals, line.values);
  if (!parsed.ok) {
    io.err(`export: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  let password: string | null = null;
  if (parsed.passwordFile !== null) {
    const read = readPassword(parsed.passwordFile);
    if (typeof read !== "string") {
      io.err(read.error);
      return 2;
    }
    password = read;
  }

  prepare();
  try {
    const { AppError } = await import("@/lib/domain/errors");
    try {
      const body = await exportBody(parsed, password);
      if (parsed.out === null) io.out(body);
      else {
        writeFileSync(parsed.out, body);
        io.err(`export: wrote ${parsed.out} (${Buffer.byteLength(body)} bytes)`);
      }
      return 0;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "not_found") throw error;
      io.err(`export: ${error.message.replace(/\.$/, "")} (database ${shownDatabase()}).`);
      return 1;
    }
  } catch (error) {
    io.err(`export: reading ${shownDatabase()} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** The password, from its file's first line (a trailing newline is no part of it), or why it cannot be used. */
function readPassword(file: string): string | { error: string } {
  let password: string;
  try {
    password = readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    return { error: `export: --password-file: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (password.length < 8 || password.length > 1024)
    return { error: `export: --password-file: the password in ${file} must be 8 to 1024 characters, it has ${password.length}` };
  return password;
}

async function exportBody({ threadId, format, redact, subagents, chain }: ExportCommand, password: string | null): Promise<string> {
  if (format === "json") {
    const { exportThread } = await import("@/lib/db/imports/transfer");
    return exportThread(threadId, { chain, redact, includeExpired: true });
  }
  const { readableExport } = await import("@/lib/sharing/readable-export");
  const { body } = await readableExport(threadId, format, { redact, subagents, chain, includeExpired: true });
  if (password === null) return body;
  const { encryptedHtml } = await import("@/lib/sharing/encrypted-html");
  return encryptedHtml(body, password);
}
