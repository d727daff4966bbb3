// The server's worker threads that run TypeScript (lib/imports/parse-worker.ts), bundled into
// build/workers/ with esbuild: a worker thread loads plain JavaScript, not the server's bundles.
// `npm start`, `npm test` and the bench build them when lib/ is newer than they are (ensureBuild in
// scripts/lib.mjs), `npm run dev` too (scripts/start.mjs), and the integration tests before they run
// (lib/testing/global-setup.ts). Run directly: node scripts/build-workers.mjs
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The bundles: the parse worker, and `threadline push` (lib/push/cli.ts, started by scripts/push.mjs). */
const WORKERS = { "parse-worker": "lib/imports/parse-worker.ts", push: "lib/push/cli.ts" };
const OUT_DIR = path.join(root, "build", "workers");

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(full));
    else if (/\.(ts|mjs|js)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Bundles every worker whose bundle is missing or older than lib/ (esbuild: about 0.1 s each). */
export function buildWorkers({ force = false } = {}) {
  const sources = newestIn(path.join(root, "lib"));
  for (const [name, entry] of Object.entries(WORKERS)) {
    const outfile = path.join(OUT_DIR, `${name}.cjs`);
    if (!force && existsSync(outfile) && statSync(outfile).mtimeMs >= sources) continue;
    // Loaded here: scripts/lib.mjs imports this module before `npm install` has run.
    require("esbuild").buildSync({
      entryPoints: [path.join(root, entry)],
      outfile,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      // server-only's empty export, as the server's own modules see it.
      conditions: ["react-server"],
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "warning",
      legalComments: "none",
    });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildWorkers({ force: true });
