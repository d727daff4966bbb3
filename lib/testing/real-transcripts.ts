import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { detectFormat, isTranscriptPath, parseDetected, type ParsedSource } from "@/lib/importers";
import { isAgentDatabase } from "@/lib/importers/databases";

/** The real public transcripts the tests read (see fixtures/real/SOURCES.md). */
export const REAL_TRANSCRIPTS = path.join(process.cwd(), "fixtures/real");

/** Every text transcript file under `dir`, in name order (agents' SQLite databases are read by lib/imports/agent-databases, not parsed as text). */
export function* realTranscriptFiles(dir: string = REAL_TRANSCRIPTS): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const child = path.join(dir, name);
    if (statSync(child).isDirectory()) yield* realTranscriptFiles(child);
    else if (isTranscriptPath(child) && !isAgentDatabase(child)) yield child;
  }
}

/** A transcript file parsed as `npm run import` parses it. */
export function parseRealTranscript(file: string): Promise<ParsedSource> {
  return parseDetected(file, detectFormat(file, readFileSync(file, "utf8")));
}
