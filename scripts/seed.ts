// Seeds the demo data. `--once` (npm start uses this): only on the first run against a database,
// and only for someone without sessions of their own (lib/domain/threads/demo-seeding.ts: no followed
// folder holds one and the database has no thread; THREADLINE_DEMO_DATA=on or off decides
// instead). Without it, adds another copy of the demo set under new ids.
import { buildDemoDocument, DEMO_SOURCE } from "@/lib/demo/demo-data";
import { decideDemoSeeding } from "@/lib/demo/seeding";
import { db } from "@/lib/db/engine/client";
import { importDocuments } from "@/lib/db/imports/transfer";
import { serverSettings } from "@/lib/env";
import { commandLine } from "./lib.mjs";

const once = commandLine("db:seed", "usage: npm run db:seed [-- --once]", { once: { type: "boolean" } }).values.once === true;
const client = await db();
const marker = await client.appSetting.findUnique({ where: { key: "demoSeededAt" } });
if (once && marker) {
  process.exit(0);
}
if (once) {
  const decision = await decideDemoSeeding({
    demoData: process.env.THREADLINE_DEMO_DATA,
    sources: serverSettings().sources,
    threads: () => client.thread.count(),
  });
  if (decision.warning) console.warn(`[threadline] warning: ${decision.warning}`);
  console.log(`[threadline] ${decision.reason}`);
  if (!decision.seed) process.exit(0);
}
const existing = await client.thread.count({ where: { source: DEMO_SOURCE } });
const result = await importDocuments([buildDemoDocument()], existing > 0 ? "copy" : "strict");
await client.appSetting.upsert({
  where: { key: "demoSeededAt" },
  create: { key: "demoSeededAt", value: new Date().toISOString() },
  update: { value: new Date().toISOString() },
});
console.log(`[threadline] seeded demo data: ${result.threadIds.length} threads, ${result.turnCount} turns`);
