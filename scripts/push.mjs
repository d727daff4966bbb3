// `npm run push -- ...` in a clone, `threadline push ...` from the package: sends this laptop's
// agent sessions to a Threadline server (lib/push/cli.ts, whose --help says how). The command
// itself is TypeScript, bundled into build/workers/push.cjs: in a clone it is bundled here when
// lib/ changed since (about 0.2 s), after installing the dependencies if they are missing; the
// package carries it bundled.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { root } from "./lib.mjs";

if (existsSync(path.join(root, "lib", "push", "cli.ts"))) {
  const { ensureDependencies } = await import("./lib.mjs");
  ensureDependencies();
  const { buildWorkers } = await import("./build-workers.mjs");
  buildWorkers();
}
const bundle = path.join(root, "build", "workers", "push.cjs");
/** @type {{ main(args: string[]): Promise<number> }} */
const push = createRequire(import.meta.url)(bundle);
process.exitCode = await push.main(process.argv.slice(2));
