// `npm start`: everything a fresh clone needs, then the production server on 127.0.0.1
// (`npm run dev`: the development server), both in scripts/server.mjs. package.json runs it with
// MALLOC_ARENA_MAX=2: glibc's allocator otherwise keeps an arena per thread that allocates (the
// server has 13-15), and after a first sync of 500 sessions the server held 55-70 MB more at rest,
// for no CPU saved. And with --heap-growing-percent=50: V8 lets a heap grow to 1.1-4 times what
// its last full collection kept before it collects again, and during a first sync of 2,000
// sessions the importing thread's heap grew to 245 MB of garbage over 60 MB of live data; at 1.5
// times it stays under 130 MB, and the group's peak fell from 452-478 to 314-323 MB with the sync's
// time unchanged (docs/benchmarks.md, "Twelfth round").
import { allowedHostsNote, authGate } from "./auth-gate.mjs";
import { buildWorkers } from "./build-workers.mjs";
import { commandLine, ensureBuild, ensureDependencies, ensureMigrated, ensurePrismaClient } from "./lib.mjs";
import { serve } from "./server.mjs";

const dev =
  commandLine("npm start", "usage: npm start (or npm run dev); HOST and PORT choose the address", { dev: { type: "boolean" } }).values
    .dev === true;
const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
// Before any work: a server reachable from other machines must say whether people sign in.
const gate = authGate({ host, auth: process.env.THREADLINE_AUTH });
if (!gate.ok) {
  console.error(`[threadline] ${gate.message.replaceAll("\n", "\n[threadline] ")}`);
  process.exit(1);
}
if (gate.warning) console.warn(`[threadline] warning: ${gate.warning}`);
ensureDependencies();
ensurePrismaClient();

ensureMigrated();
// The demo threads are the server's to seed as it starts (instrumentation.ts).

if (dev) buildWorkers();
else ensureBuild();

console.log(`[threadline] serving http://${host}:${port}`);
const note = allowedHostsNote(host, process.env.THREADLINE_ALLOWED_HOSTS);
if (note) console.log(`[threadline] ${note}`);
// Next.js in this process, behind scripts/server.mjs's checks (request sizes, the client's address).
await serve({ dev, host, port });
