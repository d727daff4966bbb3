// npm run export -- <threadId> [--format html|md|json] [--redact|--no-redact] [--subagents] [--chain] [--password-file F] [--out F]
// A thread (or its chain) as a file, read from the database DATABASE_URL names (as the app does:
// unset, data/threadline.db): the bytes GET /api/threads/:id/export answers (POST with a password:
// the encrypted HTML). To stdout, or to --out. Expired threads are exported too: they are kept
// until purged. Bad usage exits with 2, an unknown thread or a failure with 1.
import { readFileSync, writeFileSync } from "node:fs";
import type { ExportCommand } from "@/lib/validation/export-command";
import { commandLine, ensureDependencies, ensureMigrated, ensurePrismaClient, keepStdoutForData, shownDatabase } from "./lib.mjs";

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

// Whatever the helpers below print (an install, a migration) goes to stderr: stdout is the file.
keepStdoutForData();
ensureDependencies();

const { values, positionals } = commandLine(
  "export",
  USAGE,
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
  { positionals: true },
);
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const { parseExportCommand } = await import("@/lib/validation/export-command");
const parsed = parseExportCommand(positionals, values);
if (!parsed.ok) {
  console.error(`export: ${parsed.error}\n${USAGE}`);
  process.exit(2);
}

/** The password, from its file's first line (a trailing newline is no part of it). */
function readPassword(file: string): string {
  let password: string;
  try {
    password = readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    console.error(`export: --password-file: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  if (password.length < 8 || password.length > 1024) {
    console.error(`export: --password-file: the password in ${file} must be 8 to 1024 characters, it has ${password.length}`);
    process.exit(2);
  }
  return password;
}
const password = parsed.passwordFile === null ? null : readPassword(parsed.passwordFile);

ensurePrismaClient();
ensureMigrated();

process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));

try {
  const { AppError } = await import("@/lib/domain/errors");
  try {
    const body = await exportBody(parsed);
    if (parsed.out === null) process.stdout.write(body, () => process.exit(0));
    else {
      writeFileSync(parsed.out, body);
      console.error(`export: wrote ${parsed.out} (${Buffer.byteLength(body)} bytes)`);
      process.exit(0);
    }
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "not_found") throw error;
    console.error(`export: ${error.message.replace(/\.$/, "")} (database ${shownDatabase()}).`);
    process.exit(1);
  }
} catch (error) {
  console.error(`export: reading ${shownDatabase()} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

async function exportBody({ threadId, format, redact, subagents, chain }: ExportCommand): Promise<string> {
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
