// Seeds the demo data. `--once`: only on the first run against a database (npm start uses this);
// without it, adds another copy of the demo set under new ids.
import { buildDemoDocument } from "@/lib/demo/demo-data";
import { db } from "@/lib/db/client";
import { importDocuments } from "@/lib/db/transfer";
import { commandLine } from "./lib.mjs";

const once = commandLine("db:seed", "usage: npm run db:seed [-- --once]", { once: { type: "boolean" } }).values.once === true;
const client = await db();
const marker = await client.appSetting.findUnique({ where: { key: "demoSeededAt" } });
if (once && marker) {
  process.exit(0);
}
const existing = await client.thread.count({ where: { source: "demo" } });
const result = await importDocuments([buildDemoDocument()], existing > 0 ? "copy" : "strict");
await client.appSetting.upsert({
  where: { key: "demoSeededAt" },
  create: { key: "demoSeededAt", value: new Date().toISOString() },
  update: { value: new Date().toISOString() },
});
console.log(`[threadline] seeded demo data: ${result.threadIds.length} threads, ${result.turnCount} turns`);
