import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REAL_TRANSCRIPTS } from "./real-transcripts";

const PROJECTS = path.join(REAL_TRANSCRIPTS, "claude-code", "projects");
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Anthropic's message, request and tool-use ids: ccusage counts a response once per message and request id. */
const PROVIDER_ID = /\b(msg|req|toolu)_[A-Za-z0-9]+/g;
const TIMESTAMP = /"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g;
const DAY_MS = 86_400_000;

/** One real session: its main file and the files of its sub-agents and compaction runs, relative to it. */
type RealSession = { id: string; main: string; companions: { relative: string; text: string }[]; firstAt: number };

function realSessions(): RealSession[] {
  const sessions: RealSession[] = [];
  for (const project of readdirSync(PROJECTS).sort()) {
    const folder = path.join(PROJECTS, project);
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith(".jsonl")) continue;
      const id = name.slice(0, -".jsonl".length);
      const main = readFileSync(path.join(folder, name), "utf8");
      const companions: RealSession["companions"] = [];
      const sessionFolder = path.join(folder, id);
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir).sort()) {
          const child = path.join(dir, entry);
          if (statSync(child).isDirectory()) walk(child);
          else if (entry.endsWith(".jsonl"))
            companions.push({ relative: path.relative(sessionFolder, child), text: readFileSync(child, "utf8") });
        }
      };
      if (statSync(sessionFolder, { throwIfNoEntry: false })?.isDirectory()) walk(sessionFolder);
      const first = TIMESTAMP.exec(main);
      TIMESTAMP.lastIndex = 0;
      sessions.push({ id, main, companions, firstAt: first ? Date.parse(first[1]!) : 0 });
    }
  }
  return sessions;
}

export type ClaudeCodeFolder = {
  /** Every file written: sessions first, then sub-agent and compaction-run files. */
  files: string[];
  bytes: number;
  sessions: number;
  /** Sub-agent and compaction-run files (under `<session>/subagents/`). */
  companionFiles: number;
  /** The session id of the session whose files were modified last (each file's mtime is its session's last timestamp). */
  newestSession: string;
};

/**
 * A ~/.claude/projects folder of `count` sessions under `dir` (20 project folders), made from the
 * real Claude Code fixtures in turn, each with its sub-agent and compaction-run files. Every copy
 * is a session of its own: every UUID and every message, request and tool-use id is new (so
 * neither Threadline nor ccusage counts a response twice), and its timestamps are moved so the
 * copies start on each of the `days` days up to `endAt`, at hours spread over the day.
 */
export function writeClaudeCodeFolder(dir: string, count: number, options: { days?: number; endAt?: Date } = {}): ClaudeCodeFolder {
  const days = options.days ?? 60;
  // The last day is the one before endAt's: no session starts later than endAt.
  const endDay = Math.floor((options.endAt ?? new Date()).getTime() / DAY_MS) * DAY_MS - DAY_MS;
  const real = realSessions();
  const result: ClaudeCodeFolder = { files: [], bytes: 0, sessions: 0, companionFiles: 0, newestSession: "" };
  let newestAt = -Infinity;
  const companions: string[] = [];
  for (let i = 0; i < count; i++) {
    const source = real[i % real.length]!;
    const ids = new Map<string, string>();
    const startAt = endDay - (days - 1 - (i % days)) * DAY_MS + ((i * 7) % 24) * 3_600_000 + (i % 60) * 60_000;
    const shift = startAt - source.firstAt;
    let lastAt = startAt;
    const rewrite = (text: string) =>
      text
        .replace(UUID, (id) => remembered(ids, id, randomUUID))
        .replace(PROVIDER_ID, (id, prefix: string) => remembered(ids, id, () => `${prefix}_${randomBytes(12).toString("base64url")}`))
        .replace(TIMESTAMP, (_match, at: string) => {
          const moved = Date.parse(at) + shift;
          lastAt = Math.max(lastAt, moved);
          return `"timestamp":"${new Date(moved).toISOString()}"`;
        });
    const project = path.join(dir, `-home-user-project-${i % 20}`);
    const sessionId = remembered(ids, source.id, randomUUID);
    const main = rewrite(source.main);
    mkdirSync(project, { recursive: true });
    const mainFile = path.join(project, `${sessionId}.jsonl`);
    writeFileSync(mainFile, main);
    const written = [mainFile];
    result.files.push(mainFile);
    result.bytes += Buffer.byteLength(main);
    result.sessions++;
    for (const companion of source.companions) {
      const file = path.join(project, sessionId, companion.relative);
      const text = rewrite(companion.text);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      companions.push(file);
      written.push(file);
      result.bytes += Buffer.byteLength(text);
      result.companionFiles++;
    }
    // Modified when the session's last line was written, as an agent leaves its files.
    for (const file of written) utimesSync(file, lastAt / 1000, lastAt / 1000);
    if (lastAt > newestAt) [newestAt, result.newestSession] = [lastAt, sessionId];
  }
  result.files.push(...companions);
  return result;
}

function remembered(ids: Map<string, string>, id: string, fresh: () => string): string {
  let value = ids.get(id);
  if (!value) ids.set(id, (value = fresh()));
  return value;
}
