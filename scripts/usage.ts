// npm run usage -- [daily|weekly|monthly|session|blocks|model|provider|project|source] [options]
// Tokens, cost and responses over time in the terminal: the figures GET /api/usage answers, read
// from the database DATABASE_URL names (as the app does: unset, data/threadline.db). A table, or
// with --json exactly the API's JSON (secrets in titles masked, as the API masks them). Bad usage
// exits with 2, a failure with 1.
import { runAsProcess } from "./cli-io";
import { ensureDependencies, ensureMigrated, ensurePrismaClient, keepStdoutForData } from "./lib.mjs";
import { usageMain } from "./usage-main";

// Whatever the helpers below print (an install, a migration) goes to stderr: stdout is the report.
keepStdoutForData();
ensureDependencies();

await runAsProcess((io) =>
  usageMain(process.argv.slice(2), io, () => {
    ensurePrismaClient();
    ensureMigrated();
  }),
);
