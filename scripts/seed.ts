// Seeds the demo data: another copy of the demo set under new ids. `--once`: only as a server's
// start would (lib/demo/seeding.ts seedDemoOnce: on the first run against a database, and only for
// someone without sessions of their own; THREADLINE_DEMO_DATA=on or off decides instead).
import { seedDemoOnce, seedDemoThreads } from "@/lib/demo/seeding";
import { commandLine } from "./lib.mjs";

const once = commandLine("db:seed", "usage: npm run db:seed [-- --once]", { once: { type: "boolean" } }).values.once === true;
if (once) {
  const { said, warnings } = await seedDemoOnce();
  for (const warning of warnings) console.warn(`[threadline] warning: ${warning}`);
  for (const line of said) console.log(`[threadline] ${line}`);
} else {
  const seeded = await seedDemoThreads();
  console.log(`[threadline] seeded demo data: ${seeded.threads} threads, ${seeded.turns} turns`);
}
