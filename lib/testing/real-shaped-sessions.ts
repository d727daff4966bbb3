import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REAL_TRANSCRIPTS } from "./real-transcripts";

/** Two real Claude Code sessions (10 KB and 39 KB) from fixtures/real, the shape of a typical ~/.claude/projects file. */
const SOURCES = [
  "claude-code/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
  "claude-code/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * `count` Claude Code session files under `dir` (a projects folder: 20 project folders), each a
 * copy of a real fixture session with every UUID replaced by a new one, so each is a session of
 * its own with content of its own. Returns the files and their total size. `shortOnly`: copies of
 * the 10 KB session alone (many files that sync quickly, for what grows with the number of files).
 */
export function writeRealShapedSessions(dir: string, count: number, { shortOnly = false } = {}): { files: string[]; bytes: number } {
  const texts = (shortOnly ? SOURCES.slice(0, 1) : SOURCES).map((source) => readFileSync(path.join(REAL_TRANSCRIPTS, source), "utf8"));
  const files: string[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const ids = new Map<string, string>();
    const text = texts[i % texts.length]!.replace(UUID, (id) => {
      let fresh = ids.get(id);
      if (!fresh) ids.set(id, (fresh = randomUUID()));
      return fresh;
    });
    const sessionId = /"sessionId":"([^"]+)"/.exec(text)?.[1] ?? randomUUID();
    const project = path.join(dir, `-home-user-project-${i % 20}`);
    mkdirSync(project, { recursive: true });
    const file = path.join(project, `${sessionId}.jsonl`);
    writeFileSync(file, text);
    files.push(file);
    bytes += Buffer.byteLength(text);
  }
  return { files, bytes };
}
