// Starts the production build for the end-to-end suite on a fresh database.
// Usage: node scripts/e2e-server.mjs <port> <name> [--seed] [--allowed-hosts=<names>]
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { npx, root } from "./lib.mjs";

const [port = "3100", name = "e2e"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const seed = process.argv.includes("--seed");
const allowedHosts = process.argv.find((a) => a.startsWith("--allowed-hosts="))?.slice("--allowed-hosts=".length);
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
