// npm run db:copy -- --from <url> --to <url>
// Copies a whole Threadline database into an empty one, typically the embedded SQLite file into
// PostgreSQL when a team outgrows one machine:
//   npm run db:copy -- --from file:data/threadline.db --to postgresql://user:pass@host:5432/threadline
// The destination is migrated first, then written in one transaction that commits only when every
// table read back has the source's row count and checksum. Stop the servers writing to the source
// first: rows written during the copy are not in it (the source is read in one snapshot).
import { ensureDependencies, ensurePrismaClient } from "./lib.mjs";

ensureDependencies();
ensurePrismaClient();

// Imported once the dependencies and the Prisma client are there.
const { dbCopyMain } = await import("./db-copy-main");
const code = await dbCopyMain(process.argv.slice(2), { log: (line) => console.log(line), err: (line) => console.error(line) });
process.exit(code);
