// Starts the production build for the end-to-end suite on a fresh database, in scripts/server.mjs
// as `npm start` does (the environment given by playwright.config.ts is passed through).
// Usage: node scripts/e2e-server.mjs <port> <name> [--seed] [--allowed-hosts=<names>] [--sources-home] [--auth]
// --auth: sign-in on (THREADLINE_AUTH=on); the first admin from THREADLINE_ADMIN_EMAIL/PASSWORD.
// The servers follow no transcript folders (THREADLINE_SOURCES=off: never the developer's own
// ~/.claude), except with --sources-home: HOME is then a fresh e2e/.data/<name>-home whose
// ~/.claude/projects holds one real Claude Code session, followed by default.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { commandLine, npx, root } from "./lib.mjs";
import { serve } from "./server.mjs";

const { values, positionals } = commandLine(
  "e2e-server",
  "usage: node scripts/e2e-server.mjs <port> <name> [--seed] [--allowed-hosts=<names>] [--sources-home] [--auth]",
  { seed: { type: "boolean" }, "allowed-hosts": { type: "string" }, "sources-home": { type: "boolean" }, auth: { type: "boolean" } },
  { positionals: true },
);
const [port = "3100", name = "e2e"] = positionals;
const seed = values.seed === true;
const allowedHosts = values["allowed-hosts"];
const dir = path.join(root, "e2e", ".data");
const file = path.join(dir, `${name}.db`);
mkdirSync(dir, { recursive: true });
for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
const env = { DATABASE_URL: `file:${file}` };
/** @type {Record<string, string>} */
let sources = { THREADLINE_SOURCES: "off" };
if (values["sources-home"]) {
  const home = path.join(dir, `${name}-home`);
  rmSync(home, { recursive: true, force: true });
  const session = "fixtures/real/claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl";
  cpSync(path.join(root, session), path.join(home, ".claude", "projects", "-path-to-Demo", path.basename(session)));
  sources = { HOME: home, THREADLINE_SOURCES: "" };
}
npx("prisma", ["migrate", "deploy"], { env, stdio: ["ignore", "ignore", "inherit"] });
Object.assign(process.env, env, sources, allowedHosts ? { THREADLINE_ALLOWED_HOSTS: allowedHosts } : {}, {
  THREADLINE_AUTH: values.auth ? "on" : "off",
  // The server seeds as it starts: forced, so that a seeded server has the demo set whatever
  // sessions the machine running the suite has, and the others start empty.
  THREADLINE_DEMO_DATA: seed ? "on" : "off",
});
await serve({ dev: false, host: "127.0.0.1", port });
