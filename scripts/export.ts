// npm run export -- <threadId> [--format html|md|json] [--redact|--no-redact] [--subagents] [--chain] [--password-file F] [--out F]
// A thread (or its chain) as a file, read from the database DATABASE_URL names (as the app does:
// unset, data/threadline.db): the bytes GET /api/threads/:id/export answers (POST with a password:
// the encrypted HTML). To stdout, or to --out. Expired threads are exported too: they are kept
// until purged. Bad usage exits with 2, an unknown thread or a failure with 1.
import { runAsProcess } from "./cli-io";
import { exportMain } from "./export-main";
import { ensureDependencies, ensureMigrated, ensurePrismaClient, keepStdoutForData } from "./lib.mjs";

// Whatever the helpers below print (an install, a migration) goes to stderr: stdout is the file.
keepStdoutForData();
ensureDependencies();

await runAsProcess((io) =>
  exportMain(process.argv.slice(2), io, () => {
    ensurePrismaClient();
    ensureMigrated();
  }),
);
