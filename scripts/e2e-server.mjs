// Starts the production build for the end-to-end suite on a fresh database.
// Usage: node scripts/e2e-server.mjs <port> <name> [--seed] [--allowed-hosts=<names>]
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { commandLine, npx, root } from "./lib.mjs";

const { values, positionals } = commandLine(
  "e2e-server",
  "usage: node scripts/e2e-server.mjs <port> <name> [--seed] [--allowed-hosts=<names>]",
  { seed: { type: "boolean" }, "allowed-hosts": { type: "string" } },
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
npx("prisma", ["migrate", "deploy"], { env, stdio: ["ignore", "ignore", "inherit"] });
if (seed) npx("tsx", ["--conditions=react-server", "scripts/seed.ts", "--once"], { env });
const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-H", "127.0.0.1", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ...env, ...(allowedHosts ? { THREADLINE_ALLOWED_HOSTS: allowedHosts } : {}), NEXT_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
