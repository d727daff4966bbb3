// `npm run import -- <paths...>`: runs scripts/import.ts with a bounded V8 heap. Claude Code
// sessions stream, so 256 MB does for any size and keeps the process under 400 MB; a whole-document
// export (a big ChatGPT conversations.json) is read whole, up to THREADLINE_MAX_DOCUMENT_MB (64 MB),
// and a bigger one needs both raised:
// THREADLINE_MAX_DOCUMENT_MB=1024 THREADLINE_IMPORT_HEAP_MB=4096 npm run import -- conversations.json
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const heapMb = Number(process.env.THREADLINE_IMPORT_HEAP_MB ?? "256");
if (!Number.isInteger(heapMb) || heapMb < 64) {
  console.error(
    `THREADLINE_IMPORT_HEAP_MB must be a whole number of megabytes, at least 64; got "${process.env.THREADLINE_IMPORT_HEAP_MB}"`,
  );
  process.exit(2);
}
const script = fileURLToPath(new URL("./import.ts", import.meta.url));
const result = spawnSync(
  process.execPath,
  [`--max-old-space-size=${heapMb}`, "--import", "tsx", "--conditions=react-server", script, ...process.argv.slice(2)],
  {
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
