// `npm test`: the whole suite on a fresh clone: types, unit and integration (Vitest, real SQLite
// files), then a production build and the end-to-end suite (Playwright on the system Chromium).
import { ensureBuild, ensureDependencies, ensurePrismaClient, npx } from "./lib.mjs";

ensureDependencies();
ensurePrismaClient();
console.log("[threadline] typecheck");
npx("tsc", ["--noEmit"]);
console.log("[threadline] unit and integration tests");
npx("vitest", ["run"]);
ensureBuild();
console.log("[threadline] end-to-end tests");
npx("playwright", ["test"]);
